#include "Commands.h"
#include "gpusizer/plan/Bill.h"
#include "gpusizer/plan/FitTable.h"
#include "gpusizer/plan/Planner.h"
#include "gpusizer/present/BillText.h"
#include "gpusizer/present/Format.h"
#include "gpusizer/present/Json.h"
#include "gpusizer/present/PlanTables.h"
#include "gpusizer/present/PlanText.h"
#include "gpusizer/present/Table.h"

#include <ctime>
#include <optional>
#include <string>

namespace gpusizer::cli {

namespace {

/// Today as "YYYY-MM-DD" (how old the prices are).
std::string today() {
    const std::time_t now = std::time(nullptr);
    char text[16] = {};
    std::tm local{};
    localtime_r(&now, &local);
    std::strftime(text, sizeof text, "%Y-%m-%d", &local);
    return text;
}

/// fit's table, and each card's notes: why its choice, why fewer cards fail.
void printFitTable(std::ostream& out, const std::vector<core::FitRow>& rows, const std::vector<core::CardPlan>& results,
                   const core::PlanInputs& inputs, const core::Scenario& scenario) {
    out << present::renderText(
        present::fitTable(rows, inputs, scenario.gpuId, present::LayoutText::Full)
            .select({present::FitGpu, present::FitYours, present::FitBest, present::FitMaxBatch, present::FitMaxSeq}));
    for (const auto& r : results) {
        std::vector<present::Message> notes =
            r.found ? present::candidateNotes(r.best) : std::vector<present::Message>{};
        if (r.fewerCards) {
            notes.push_back(present::msg(QT_TRANSLATE_NOOP("gpusizer", "%1 cards: %2"),
                                         present::count(r.fewerCards->scenario.gpus), present::whyNot(*r.fewerCards)));
        }
        for (const auto& n : notes) {
            out << "  " << r.gpu->name << ": " << present::english(n) << "\n";
        }
    }
}

/// plan's table, and each card's runners-up with why they lost.
void printPlanTable(std::ostream& out, const std::vector<core::CardPlan>& results, const core::PlanInputs& inputs,
                    const core::Ranking& ranking) {
    out << present::renderText(present::planTable(results, inputs, ranking.chosen, present::LayoutText::Full)
                                   .select({present::PlanGpu, present::PlanLayout, present::PlanPerGpu,
                                            present::PlanHours, present::PlanGpuHours, present::PlanCost}));
    out << "\nRunners-up and why they lost:\n";
    for (const auto& r : results) {
        const auto lines = present::planDetails(r, inputs);
        for (std::size_t i = 0; i < lines.size(); ++i) {
            out << (i == 0 ? "  " : "      ") << present::english(lines[i]) << "\n";
        }
    }
}

/// What to rent, the chosen plan's assumptions and, for plan, its whole bill and the cleanup after it.
void printChoice(std::ostream& out, const std::vector<core::CardPlan>& results, const core::Ranking& ranking,
                 const std::optional<core::RunBill>& bill, const core::PlanInputs& inputs) {
    out << "\n" << present::english(present::rentSentence(results, ranking, inputs)) << "\n";
    if (ranking.chosen >= 0) {
        const auto& chosen = results[static_cast<std::size_t>(ranking.chosen)];
        out << present::english(present::planAssumptions(chosen.best, *chosen.gpu, inputs)) << "\n"
            << present::english(present::throughputSentence(*chosen.gpu, inputs)) << "\n";
        if (!chosen.gpu->notes.empty()) {
            out << chosen.gpu->name << ": " << chosen.gpu->notes << "\n";
        }
    }
    if (bill) {
        const auto& chosen = results[static_cast<std::size_t>(ranking.chosen)];
        out << "\nThe whole bill on " << chosen.gpu->name << ":\n"
            << present::renderText(present::billTable(*bill, inputs), "  ");
        for (const auto& line : {present::intervalSentence(*bill, inputs), present::spotSentence(*bill, inputs),
                                 present::priceAgeSentence(*chosen.gpu, today())}) {
            out << present::english(line) << "\n";
        }
        out << "\nWhen it is done, in this order:\n";
        int step = 0;
        for (const auto& line : present::cleanupChecklist(*bill, inputs)) {
            out << "  " << ++step << ". " << present::english(line) << "\n";
        }
    }
}

int fitOrPlan(const Args& a, bool withCost, std::ostream& out, std::ostream& err) {
    const auto loaded = loadCatalogs(err);
    const auto scenario = loadScenario(a, loaded.catalog, err);
    if (!scenario) {
        return kBadInput;
    }
    if (withCost && !a.tokens && !scenario->dataset) {
        err << "gpusizer-cli: plan needs --tokens N (dataset tokens per epoch), or the scenario's dataset lengths "
               "(import-lengths)\n";
        return kUsage;
    }
    const auto inputs = planInputsFrom(a, *scenario, err);
    if (!inputs) {
        return kBadInput;
    }
    // The fit table's rows: the scenario's own layout and the planner's choice on each card, the same answers the
    // GPU fit tab and the Plan tab show.
    const auto rows = core::fitTable(*scenario, loaded.catalog.gpus, *inputs);
    std::vector<core::CardPlan> results;
    for (const auto& r : rows) {
        results.push_back(r.best);
    }
    const auto ranking = core::rank(results, *inputs);
    const double margin = core::fitMargin(*scenario, *inputs);
    // The whole bill of the chosen plan, and the one-hour test that comes before it (plan only).
    std::optional<core::RunBill> bill;
    std::optional<core::TrialHour> trial;
    if (withCost) {
        trial = core::firstTestOf(results, ranking, *inputs);
        if (ranking.chosen >= 0) {
            const auto& chosen = results[static_cast<std::size_t>(ranking.chosen)];
            bill = core::runBill(chosen.best, *chosen.gpu, *inputs);
        }
    }
    if (a.json) {
        auto doc = present::fitPlanJson(withCost, rows, ranking, *inputs, margin);
        if (withCost) {
            doc["one_hour_test"] = present::trialJson(*trial);
            doc["bill"] = bill ? present::billJson(*bill, *inputs) : nlohmann::json(nullptr);
        }
        out << doc.dump(2) << "\n";
        return kOk;
    }
    if (trial) {
        out << present::english(present::trialSentence(*trial)) << "\n\n";
    }
    out << "Fit margin " << present::percent(margin) << " over the estimate (the estimate's measured band"
        << (inputs->marginShare ? ", as given" : "")
        << "); objective: " << present::english(present::objectiveRule(*inputs)) << ".\n\n";
    if (!withCost) {
        printFitTable(out, rows, results, *inputs, *scenario);
    } else {
        printPlanTable(out, results, *inputs, ranking);
    }
    printChoice(out, results, ranking, bill, *inputs);
    if (withCost) {
        out << "Speed: "
            << (inputs->mfu ? "HFU " + present::percent(*inputs->mfu) + " as set for every card"
                            : std::string("each card's published HFU, else 25%"))
            << "; " << present::english(present::tokensAssumption(*inputs)) << "; prices illustrative.\n";
    }
    return kOk;
}

} // namespace

int fitCommand(const Args& a, std::ostream& out, std::ostream& err) {
    return fitOrPlan(a, false, out, err);
}

int planCommand(const Args& a, std::ostream& out, std::ostream& err) {
    return fitOrPlan(a, true, out, err);
}

} // namespace gpusizer::cli
