#include "gpusizer/memory/Accuracy.h"

#include "gpusizer/memory/Estimate.h"
#include "gpusizer/scenario/Catalog.h"
#include "gpusizer/scenario/JsonRead.h"
#include "gpusizer/scenario/ScenarioJson.h"
#include "gpusizer/scenario/Units.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <numeric>
#include <set>

namespace gpusizer::core {

using nlohmann::json;

std::vector<const CalibrationRow*> CalibrationReport::targetRows() const {
    std::vector<const CalibrationRow*> out;
    for (const auto& r : rows) {
        if (r.target) {
            out.push_back(&r);
        }
    }
    return out;
}

ErrorStats errorStats(const std::vector<const CalibrationRow*>& rows) {
    ErrorStats s;
    s.count = rows.size();
    if (rows.empty()) {
        return s;
    }
    std::vector<double> abs;
    for (const CalibrationRow* r : rows) {
        abs.push_back(std::abs(r->errorShare));
        s.meanSigned += r->errorShare;
    }
    std::sort(abs.begin(), abs.end());
    s.meanAbs = std::accumulate(abs.begin(), abs.end(), 0.0) / static_cast<double>(abs.size());
    s.medianAbs = abs.size() % 2 == 1 ? abs[abs.size() / 2] : 0.5 * (abs[abs.size() / 2 - 1] + abs[abs.size() / 2]);
    s.maxAbs = abs.back();
    s.meanSigned /= static_cast<double>(rows.size());
    return s;
}

namespace {

double roundUpPercent(double share) {
    return std::ceil(share * 100.0 - 1e-9) / 100.0;
}

/// measured / estimated for a row, as if its framework were (named) or were not (generic) given.
double ratio(const CalibrationRow& r, bool named) {
    return 1.0 / (1.0 + (named ? r.errorShare : r.genericErrorShare));
}

BandShares sharesFrom(std::vector<double> ratios) {
    BandShares s;
    if (ratios.empty()) {
        return {kBandNoiseFloor, kBandNoiseFloor};
    }
    std::sort(ratios.begin(), ratios.end());
    const std::size_t n = ratios.size();
    // The split-conformal rank (Accuracy.h, kBandMissShare), the extreme row when n is too small for it.
    const auto rank =
        std::min(n, static_cast<std::size_t>(std::ceil(static_cast<double>(n + 1) * (1.0 - kBandMissShare) - 1e-9)));
    s.down = std::max(kBandNoiseFloor, roundUpPercent(1.0 - ratios[n - rank]));
    s.up = std::max(kBandNoiseFloor, roundUpPercent(ratios[rank - 1] - 1.0));
    return s;
}

/// Whether a sample is evidence enough for a class: kBandMinRows rows from kBandMinProjects projects.
bool enoughEvidence(const std::vector<const CalibrationRow*>& sample) {
    std::set<std::string_view> projects;
    for (const CalibrationRow* r : sample) {
        projects.insert(r->project);
    }
    return sample.size() >= kBandMinRows && projects.size() >= kBandMinProjects;
}

} // namespace

std::vector<BandEntry> deriveBandTable(const std::vector<const CalibrationRow*>& rows) {
    std::vector<BandEntry> table;
    auto ratios = [](const std::vector<const CalibrationRow*>& sample, bool named) {
        std::vector<double> out;
        for (const CalibrationRow* r : sample) {
            out.push_back(ratio(*r, named));
        }
        return out;
    };
    for (bool named : {true, false}) {
        for (Method method : {Method::Full, Method::Lora, Method::Qlora}) {
            for (bool multi : {false, true}) {
                // The class's own rows; too few or too few projects: pooled over GPU counts; still too few: all.
                std::vector<const CalibrationRow*> own;
                std::vector<const CalibrationRow*> pooled;
                for (const CalibrationRow* r : rows) {
                    if (r->bandClass.method == method) {
                        pooled.push_back(r);
                        if (r->bandClass.multiGpu == multi) {
                            own.push_back(r);
                        }
                    }
                }
                const auto& used = enoughEvidence(own) ? own : enoughEvidence(pooled) ? pooled : rows;
                table.push_back(
                    {{named, method, multi}, sharesFrom(ratios(used, named)), static_cast<int>(used.size())});
            }
        }
    }
    return table;
}

LongSequenceBand deriveLongSequenceBand(const std::vector<CalibrationRow>& rows) {
    LongSequenceBand band;
    // The evidence reaches as far as kBandMinProjects projects' target rows do: one project's rows share its stack,
    // harness and way of reading memory, one piece of evidence, as for the classes.
    std::map<std::string_view, double> longestOfProject;
    for (const CalibrationRow& r : rows) {
        if (r.target) {
            double& longest = longestOfProject[r.project];
            longest = std::max(longest, r.tokensPerGpu);
        }
    }
    std::vector<double> longest;
    for (const auto& [project, tokens] : longestOfProject) {
        longest.push_back(tokens);
    }
    std::sort(longest.begin(), longest.end(), std::greater<>());
    band.tokens = longest.empty() ? 0.0 : longest[std::min(longest.size(), kBandMinProjects) - 1];
    std::vector<double> ratios;
    // Rows whose length is only the trainer's maximum (batches padded to their longest, which the source does not
    // give) say how long the data was, not how far the estimate is off: they stay out.
    for (const CalibrationRow& r : rows) {
        if (r.tokensPerGpu > band.tokens && !r.capacityBound && r.seqLenKind != "max_length") {
            ratios.push_back(ratio(r, true));
        }
    }
    band.rows = static_cast<int>(ratios.size());
    band.shares = ratios.empty() ? BandShares{0.0, 0.0} : sharesFrom(ratios);
    return band;
}

double leaveOneProjectOutCoverage(const std::vector<const CalibrationRow*>& rows) {
    if (rows.empty()) {
        return 0.0;
    }
    std::size_t inside = 0;
    for (const CalibrationRow* r : rows) {
        std::vector<const CalibrationRow*> others;
        for (const CalibrationRow* o : rows) {
            if (o->project != r->project) {
                others.push_back(o);
            }
        }
        const auto table = deriveBandTable(others);
        for (const auto& entry : table) {
            if (entry.kind == r->bandClass) {
                const double estimate = r->estimatedGiB;
                const BandShares shown = shownBand(entry.shares); // as an estimate would show it
                const bool in =
                    r->measuredGiB >= estimate * (1.0 - shown.down) && r->measuredGiB <= estimate * (1.0 + shown.up);
                inside += in ? 1 : 0;
            }
        }
    }
    return static_cast<double>(inside) / static_cast<double>(rows.size());
}

namespace {

std::int64_t compared(const Estimate& e, const std::string& compare) {
    return compare == "allocated"  ? e.measuredAllocatedBytes()
           : compare == "reserved" ? e.measuredReservedBytes()
                                   : e.deviceBytes;
}

} // namespace

Result<CalibrationReport> runCalibration(std::string_view calibrationJson, const Catalog& gpus) {
    GPUSIZER_ASSIGN(json doc, detail::parseDocument(calibrationJson, "calibration.json"));
    if (!doc.is_object() || !doc.contains("rows") || !doc["rows"].is_array()) {
        return fail(ErrorCode::WrongFormat, QT_TRANSLATE_NOOP("gpusizer", "'rows' must be an array"),
                    "calibration.json");
    }
    CalibrationReport report;
    try {
        for (const json& row : doc["rows"]) {
            if (row.contains("excluded")) {
                report.excluded.push_back({row.at("id").get<std::string>(), row.at("excluded").get<std::string>()});
                continue;
            }
            CalibrationRow r;
            r.id = row.at("id").get<std::string>();
            r.sourceKey = r.id.substr(0, r.id.find_last_of('-'));
            r.model = row.at("model").get<std::string>();
            r.method = row.at("method").get<std::string>();
            r.measureKind = row.at("measure_kind").get<std::string>();
            r.compare = row.at("compare").get<std::string>();
            r.seqLenKind = row.at("seq_len_kind").get<std::string>();
            r.target = row.at("target").get<bool>();
            r.capacityBound = row.value("capacity_bound", false);
            r.source = row.at("source").get<std::string>();
            r.project = r.source.substr(0, r.source.find(' ')); // "pytorch/torchtune README.md (...)"
            r.interpretation = row.at("interpretation").get<std::vector<std::string>>();
            r.measuredGiB = row.at("measured_gib").get<double>() / row.at("per_gpu_divisor").get<double>();
            const std::string scenario = row.at("scenario").dump();
            GPUSIZER_ASSIGN(auto parsed, parseScenario(scenario, r.id, gpus));
            const Scenario& s = parsed.scenario;
            r.framework = toString(s.framework);
            r.runKind = std::string(toString(s.runKind)) + (hasImages(s) ? " + images" : "");
            r.bandClass = bandClassOf(s);
            r.tokensPerGpu = tokensPerGpu(s);
            r.bandClass.frameworkNamed = true; // the class of the row itself; the generic error is kept beside it
            const Estimate e = estimate(s);
            r.estimatedGiB = toGiB(static_cast<double>(compared(e, r.compare)));
            r.errorShare = (r.estimatedGiB - r.measuredGiB) / r.measuredGiB;
            r.bandLowGiB = r.estimatedGiB * (1.0 - e.bandDownShare);
            r.bandHighGiB = r.estimatedGiB * (1.0 + e.bandUpShare);
            r.inBand = r.measuredGiB >= r.bandLowGiB && r.measuredGiB <= r.bandHighGiB;
            // The same run with the framework left unnamed: what a user who does not name it is told.
            Scenario unnamed = s;
            unnamed.framework = Framework::Generic;
            unnamed.overrides = ProfileOverrides{};
            const double generic =
                toGiB(static_cast<double>(compared(estimate(unnamed, Detail::NumbersOnly), r.compare)));
            r.genericErrorShare = (generic - r.measuredGiB) / r.measuredGiB;
            report.rows.push_back(std::move(r));
        }
    } catch (const json::exception& ex) {
        return fail(ErrorCode::WrongType,
                    words(QT_TRANSLATE_NOOP("gpusizer", "malformed calibration row: %1"), ex.what()),
                    "calibration.json");
    }
    return report;
}

} // namespace gpusizer::core
