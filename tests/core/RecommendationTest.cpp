// What to rent, as an ML infrastructure engineer would sign it (issue #29): the runs of the audit, each
// checked against the rules of docs/planning.md with the arithmetic written out.
#include "TestModels.h"
#include "gpusizer/catalogs/ShippedCatalogs.h"
#include "gpusizer/plan/Advisor.h"
#include "gpusizer/plan/Bill.h"
#include "gpusizer/plan/Planner.h"
#include "gpusizer/scenario/ScenarioJson.h"

#include <cmath>
#include <gtest/gtest.h>
#include <optional>
#include <string>

using namespace gpusizer;

using fixtures::catalog;

namespace {

const core::GpuSpec& gpu(const char* id) {
    const core::GpuSpec* g = catalog().findGpu(id);
    EXPECT_NE(g, nullptr) << id;
    return *g;
}

core::Scenario fromCatalog(const char* modelId, core::Method method) {
    core::Scenario s = core::defaultScenario(catalog());
    s.modelId = modelId;
    s.model = catalog().findModel(modelId)->arch;
    s.method = method;
    return s;
}

/// The plan the default objective picks across the catalog, and the catalog's plans.
struct Pick {
    std::vector<core::CardPlan> plans;
    core::Ranking ranking;
    const core::CardPlan& chosen() const { return plans[static_cast<std::size_t>(ranking.chosen)]; }
};

Pick pick(const core::Scenario& s, const core::PlanInputs& in) {
    Pick p;
    p.plans = core::planCatalog(s, catalog().gpus, in);
    p.ranking = core::rank(p.plans, in);
    return p;
}

/// The cheapest plan of any card at any count (each card's choice and its runners-up, which include its cheapest).
double cheapestOfAll(const Pick& p, const core::PlanInputs& in) {
    double cheapest = INFINITY;
    for (const auto& card : p.plans) {
        if (!card.found) {
            continue;
        }
        cheapest = std::min(cheapest, core::costOf(card.best, in));
        for (const auto& r : card.runnersUp) {
            cheapest = std::min(cheapest, core::costOf(r, in));
        }
    }
    return cheapest;
}

} // namespace

TEST(Recommendation, ASevenBFullFineTuneOnAHundredMillionTokensRentsOneNodeNotHundredsOfCards) {
    // The audit's case: Llama-2-7B full fine-tuning, bf16 with fp32 master weights and AdamW (16 B per parameter),
    // ZeRO-3, 1e8 tokens. By the tool's own arithmetic its steps need about 6.74e9 x 6 x 1e8 / (989e12 x 0.4) = 2.8
    // GPU-hours of H100s; each card also pays the start-up and the final copy (about 20 minutes), so spreading the
    // run over hundreds of cards costs hundreds of those 20 minutes. The default (cost-led) plan rents one node or
    // less, within 1.25x of the cheapest plan of any card and count (here it is that plan), and its first test is on
    // the same card type.
    core::Scenario s = fromCatalog("llama-2-7b", core::Method::Full);
    s.precision = core::Precision::Bf16Fp32Master;
    s.sharding = core::Sharding::Zero3;
    s.gpus = 8;
    s.microBatch = 4;
    core::PlanInputs in;
    in.datasetTokens = 1e8;
    in.datasetTokensStated = true;
    ASSERT_EQ(in.objective, core::Objective::Cost);
    const Pick p = pick(s, in);
    ASSERT_GE(p.ranking.chosen, 0);
    const core::Candidate& rent = p.chosen().best;
    EXPECT_LE(rent.scenario.gpus, 16);
    EXPECT_LE(rent.scenario.gpus, p.chosen().gpu->gpusPerNode); // one node of one card type
    EXPECT_LE(core::costOf(rent, in), 1.25 * cheapestOfAll(p, in));
    // The bill's start-up lines: the instance, the image, the download (2 B x 6,738,415,616 = 13.5 GB) and the rest.
    const core::RunBill bill = core::runBill(rent, *p.chosen().gpu, in);
    EXPECT_DOUBLE_EQ(bill.fixed.provisionSeconds, 600.0);
    EXPECT_DOUBLE_EQ(bill.fixed.environmentSeconds, 360.0);
    EXPECT_NEAR(bill.fixed.downloadBytes, 2.0 * 6'738'415'616.0, 1.0);
    EXPECT_GT(bill.beforeUsdOnDemand, 0.0);
    const core::TrialHour test = core::firstTestOf(p.plans, p.ranking, in);
    ASSERT_TRUE(test.gpu.has_value());
    EXPECT_EQ(test.gpu->id, p.chosen().gpu->id);
}

TEST(Recommendation, ASeventyBQloraThatFitsOneEightyGigabyteCardRentsOneOrTwoCardsWithoutTensorParallelism) {
    // Llama-3.1-70B QLoRA (NF4 with double quantization), micro-batch 1 x 2,048 tokens, full checkpointing: about
    // 70.6e9 x (0.5 + 1/64 ...) bytes of 4-bit linears plus 16-bit embeddings, under 45 GiB, so it fits one H100.
    // bitsandbytes' 4-bit layers run under data parallelism and FSDP / ZeRO-3 (FSDP-QLoRA), never tensor or pipeline
    // parallel: no card's plan splits the layers.
    core::Scenario s = fromCatalog("llama-3.1-70b", core::Method::Qlora);
    s.microBatch = 1;
    s.checkpointing = core::Checkpointing::Full;
    core::PlanInputs in;
    in.datasetTokens = 1e8;
    ASSERT_TRUE(core::fitAsIs(s, gpu("h100-sxm"), in).fits());
    const Pick p = pick(s, in);
    ASSERT_GE(p.ranking.chosen, 0);
    EXPECT_LE(p.chosen().best.scenario.gpus, 2);
    for (const auto& card : p.plans) {
        if (card.found) {
            EXPECT_EQ(card.best.scenario.tensorParallel, 1) << card.gpu->id;
            EXPECT_EQ(card.best.scenario.pipelineParallel, 1) << card.gpu->id;
        }
    }
    // On the H100 itself (the audit's case, once "8 x H100 with TP 8"): one card.
    const core::CardPlan h100 = core::planOnCard(s, gpu("h100-sxm"), in);
    ASSERT_TRUE(h100.found);
    EXPECT_EQ(h100.best.scenario.gpus, 1);
    const core::TrialHour test = core::firstTestOf(p.plans, p.ranking, in);
    ASSERT_TRUE(test.gpu.has_value());
    EXPECT_EQ(test.gpu->id, p.chosen().gpu->id);
}

TEST(Recommendation, AnEightBLoraOnAHundredMillionTokensRentsOneCard) {
    // Llama-3.1-8B LoRA r16 on q and v, 4 x 2,048 tokens: the 16 GB base and 12 GiB of activations fit any 48 GB
    // card; more cards only add their start-up to the same GPU-hours.
    core::Scenario s = core::defaultScenario(catalog());
    s.framework = core::Framework::HfTrainer;
    core::PlanInputs in;
    in.datasetTokens = 1e8;
    const Pick p = pick(s, in);
    ASSERT_GE(p.ranking.chosen, 0);
    EXPECT_EQ(p.chosen().best.scenario.gpus, 1);
    const core::TrialHour test = core::firstTestOf(p.plans, p.ranking, in);
    ASSERT_TRUE(test.gpu.has_value());
    EXPECT_EQ(test.gpu->id, p.chosen().gpu->id);
    EXPECT_EQ(test.scope, core::TestScope::WholeRental);
    EXPECT_EQ(test.plan.scenario.gpus, 1);
}

TEST(Recommendation, TheAdvisorsMoreCardsIsTheFewestThatFit) {
    // Llama-3.1-8B full fine-tuning in pure bf16 (2 + 2 + 4 = 8 B per parameter: 64.2 GB of states) with full
    // checkpointing: one H100 (79.1 GiB usable) cannot hold it with its margin, two with ZeRO-3 hold 32 GB each.
    // "More cards" says 2, whatever the plan to rent would be.
    core::Scenario s = core::defaultScenario(catalog());
    s.method = core::Method::Full;
    s.precision = core::Precision::Bf16;
    s.checkpointing = core::Checkpointing::Full;
    s.microBatch = 1;
    s.gradientAccumulation = 8;
    const core::GpuSpec& h100 = gpu("h100-sxm");
    core::PlanInputs in;
    ASSERT_FALSE(core::fitAsIs(s, h100, in).fits());
    ASSERT_TRUE(core::fitAtCount(s, h100, 2, in).fits());
    const core::OomAdvice advice = core::adviseOom(s, h100, in);
    const auto more = std::find_if(advice.steps.begin(), advice.steps.end(),
                                   [](const core::FixStep& f) { return f.kind == core::FixKind::MoreCardsZero3; });
    ASSERT_NE(more, advice.steps.end());
    EXPECT_TRUE(more->fitsAlone);
    EXPECT_EQ(more->scenarioAlone.gpus, 2);
}

TEST(Recommendation, TheCombinationIsTheFewestLosslessFixesAndNeverTwoAlternatives) {
    // Llama-3.1-8B LoRA at 2 x 4,096 tokens without checkpointing on an L40S (44.5 GiB usable): about 80 GiB, of
    // which most is activations. Halving the sequences does not fit (48 GiB) and changes the data; full
    // checkpointing alone (lossless: one more forward) fits, so the combination is that and nothing more.
    core::Scenario s = core::defaultScenario(catalog());
    s.framework = core::Framework::HfTrainer;
    s.seqLen = 4096;
    s.microBatch = 2;
    s.checkpointing = core::Checkpointing::None;
    const core::GpuSpec& card = gpu("l40s");
    core::PlanInputs in;
    const core::OomAdvice advice = core::adviseOom(s, card, in);
    ASSERT_FALSE(advice.fitsAlready);
    ASSERT_TRUE(advice.fittingScenario.has_value());
    EXPECT_TRUE(core::fitAsIs(*advice.fittingScenario, card, in).fits());
    // One fix: checkpointing, the cheapest option of it that fits alone (selective unless only full does).
    ASSERT_EQ(advice.combination.size(), 1u);
    const core::FixKind chosen = advice.combination.front();
    EXPECT_TRUE(chosen == core::FixKind::SelectiveCheckpointing || chosen == core::FixKind::FullCheckpointing);
    const auto fitsAlone = [&](core::FixKind k) {
        for (const auto& step : advice.steps) {
            if (step.kind == k) {
                return step.fitsAlone;
            }
        }
        return false;
    };
    EXPECT_TRUE(fitsAlone(chosen));
    if (chosen == core::FixKind::FullCheckpointing) {
        EXPECT_FALSE(fitsAlone(core::FixKind::SelectiveCheckpointing));
    }
    // Halving the sequences would also fit, but it changes the data: it is not proposed while a lossless fix fits.
    // A full fine-tune that needs smaller optimizer states: 8-bit AdamW or Adafactor, never both.
    core::Scenario full = core::defaultScenario(catalog());
    full.method = core::Method::Full;
    full.precision = core::Precision::Bf16Fp32Master;
    const core::OomAdvice fullAdvice = core::adviseOom(full, gpu("h100-sxm"), in);
    const auto has = [&](core::FixKind k) {
        return std::find(fullAdvice.combination.begin(), fullAdvice.combination.end(), k) !=
               fullAdvice.combination.end();
    };
    EXPECT_FALSE(has(core::FixKind::EightBitAdam) && has(core::FixKind::Adafactor));
    EXPECT_FALSE(has(core::FixKind::SelectiveCheckpointing) && has(core::FixKind::FullCheckpointing));
    EXPECT_FALSE(has(core::FixKind::ChunkedLoss) && has(core::FixKind::FusedLoss));
}

TEST(Recommendation, ACardThatLacksTheSoftwareIsNotPlannedAndSaysWhy) {
    // QLoRA needs bitsandbytes' 4-bit layers: Gaudi's backend only dequantizes NF4 (the catalog's reason). The card
    // is left out of the plan with the reason, not silently.
    const core::Scenario qlora = fromCatalog("llama-3.1-8b", core::Method::Qlora);
    core::PlanInputs in;
    const core::CardPlan gaudi = core::planOnCard(qlora, gpu("gaudi2"), in);
    EXPECT_FALSE(gaudi.found);
    ASSERT_EQ(gaudi.unsupported.size(), 1u);
    EXPECT_EQ(gaudi.unsupported[0].feature, core::SoftwareFeature::BitsandbytesQuantization);
    EXPECT_NE(gaudi.unsupported[0].reason.find("bitsandbytes"), std::string::npos);
    // The same run in LoRA needs nothing Gaudi lacks.
    EXPECT_TRUE(core::planOnCard(fromCatalog("llama-3.1-8b", core::Method::Lora), gpu("gaudi2"), in).found);
    // The flash-attn package needs compute capability 8.0: not on a T4; SDPA runs there.
    core::Scenario flash = fromCatalog("llama-3.2-1b", core::Method::Lora);
    flash.attention = core::Attention::Flash;
    const core::CardPlan t4 = core::planOnCard(flash, gpu("t4"), in);
    EXPECT_FALSE(t4.found);
    ASSERT_FALSE(t4.unsupported.empty());
    EXPECT_EQ(t4.unsupported[0].feature, core::SoftwareFeature::FlashAttention2);
    flash.attention = core::Attention::Sdpa;
    EXPECT_TRUE(core::planOnCard(flash, gpu("t4"), in).found);
    // The scenario's own layout on the card says it too.
    const core::Candidate asIs = core::fitAsIs(qlora, gpu("gaudi2"), in);
    EXPECT_EQ(asIs.why, core::Infeasible::Software);
    EXPECT_FALSE(asIs.fits());
}

TEST(Recommendation, MarketplaceCardsArePlannedOnOneNodeUnlessANetworkIsNamed) {
    // RTX 4090s rent as single machines on marketplaces: a 70B LoRA that needs more than 8 of them is not planned on
    // them at all, unless the user names the network between the machines.
    const core::Scenario s = fromCatalog("llama-3.1-70b", core::Method::Lora);
    const core::GpuSpec& rtx = gpu("rtx-4090");
    ASSERT_FALSE(rtx.multiNode);
    core::PlanInputs in;
    EXPECT_EQ(core::cardCounts(rtx, in).back(), 8);
    in.cluster.network = core::Network::Eth25;
    EXPECT_GT(core::cardCounts(rtx, in).back(), 8);
}

TEST(Recommendation, ADeadlinePicksTheCheapestPlanThatMeetsIt) {
    // Llama-3.1-8B full fine-tuning on 1e9 tokens on H100s: the cheapest plan is the fewest cards that fit; a deadline
    // shorter than its wall time moves the choice to the cheapest plan that finishes in time.
    core::Scenario s = core::defaultScenario(catalog());
    s.method = core::Method::Full;
    s.precision = core::Precision::Bf16Fp32Master;
    s.microBatch = 1;
    s.gradientAccumulation = 64;
    core::PlanInputs in;
    in.datasetTokens = 1e9;
    const core::CardPlan cheapest = core::planOnCard(s, gpu("h100-sxm"), in);
    ASSERT_TRUE(cheapest.found);
    in.deadlineHours = cheapest.best.plan.wallHours / 3.0;
    const core::CardPlan inTime = core::planOnCard(s, gpu("h100-sxm"), in);
    ASSERT_TRUE(inTime.found);
    EXPECT_LE(inTime.best.plan.wallHours, *in.deadlineHours);
    EXPECT_GT(inTime.best.scenario.gpus, cheapest.best.scenario.gpus);
    EXPECT_GE(core::costOf(inTime.best, in), core::costOf(cheapest.best, in));
}

TEST(Recommendation, AFlexibleGlobalBatchLetsDataParallelismReplaceAccumulation) {
    // Micro-batch 1 on one card, accumulation 1: a fixed global batch of one sequence forbids data parallelism, so
    // at 8 cards only tensor or pipeline parallelism can split it. With a range of 8-64 sequences the planner runs 8
    // data-parallel replicas of one sequence each (global batch 8), as a trainer with per_device_train_batch_size 1
    // would on 8 GPUs.
    core::Scenario s = core::defaultScenario(catalog());
    s.method = core::Method::Full;
    s.precision = core::Precision::Bf16;
    s.microBatch = 1;
    s.gradientAccumulation = 1;
    core::PlanInputs fixed;
    const core::Candidate tied = core::fitAtCount(s, gpu("h100-sxm"), 8, fixed);
    if (tied.fits()) {
        EXPECT_EQ(tied.globalBatchSequences, 1);
        EXPECT_GT(tied.scenario.tensorParallel * tied.scenario.pipelineParallel, 1);
    }
    core::PlanInputs flexible;
    flexible.globalBatch = {true, 8, 64};
    const core::Candidate free = core::fitAtCount(s, gpu("h100-sxm"), 8, flexible);
    ASSERT_TRUE(free.fits());
    EXPECT_EQ(free.globalBatchSequences, 8);
    EXPECT_EQ(free.scenario.tensorParallel, 1);
    EXPECT_EQ(free.scenario.pipelineParallel, 1);
}

TEST(Recommendation, EachCardsSpeedIsItsPublishedMfuOrAConservativeDefaultOrTheUsers) {
    // The H100 SXM's published figure (LLM Foundry's HFU 53.9%: its MFU, 40.42%, leaves out the recomputed forward
    // that the time model counts), a card with none (L4: 25%, below every published
    // figure), and the user's own (an imported measurement) for every card.
    core::PlanInputs in;
    const core::MfuChoice h100 = core::mfuFor(gpu("h100-sxm"), in);
    EXPECT_EQ(h100.source, core::MfuSource::Published);
    EXPECT_DOUBLE_EQ(h100.mfu, 0.54);
    const core::MfuChoice l4 = core::mfuFor(gpu("l4"), in);
    EXPECT_EQ(l4.source, core::MfuSource::Unpublished);
    EXPECT_DOUBLE_EQ(l4.mfu, core::kUnpublishedMfu);
    for (const auto& g : catalog().gpus) {
        if (g.throughput.mfu > 0) {
            EXPECT_GT(g.throughput.mfu, core::kUnpublishedMfu) << g.id;
            EXPECT_FALSE(g.throughput.source.empty()) << g.id;
        }
    }
    in.mfu = 0.31;
    EXPECT_EQ(core::mfuFor(gpu("l4"), in).source, core::MfuSource::User);
    EXPECT_DOUBLE_EQ(core::mfuFor(gpu("h100-sxm"), in).mfu, 0.31);
    // The matmuls of a step follow: FLOPs / (peak x utilisation), beside the element-wise kernels.
    const core::Scenario s = core::defaultScenario(catalog());
    core::PlanInputs perCard;
    const auto step = core::stepTime(s, gpu("gaudi2"), perCard);
    EXPECT_NEAR(step.matmulSeconds, step.tokensPerStep * step.flopsPerToken / (432e12 * 0.60), 1e-9);
    EXPECT_NEAR(step.computeSeconds, step.matmulSeconds + step.adapterElementwiseSeconds + step.baseElementwiseSeconds,
                1e-12);
}

TEST(Recommendation, BillingRoundsAStartedUnitUpWithItsMinimum) {
    // Per second with a one-minute minimum (AWS, Google Cloud): 30 s bills 60 s, 61 s bills 61 s. Per minute
    // (Lambda): 61 s bills 120 s. Per hour: 61 minutes bill two hours.
    const core::Billing second{1.0, 60.0};
    EXPECT_DOUBLE_EQ(second.billed(30.0), 60.0);
    EXPECT_DOUBLE_EQ(second.billed(61.0), 61.0);
    const core::Billing minute{60.0, 60.0};
    EXPECT_DOUBLE_EQ(minute.billed(61.0), 120.0);
    const core::Billing hour{3600.0, 3600.0};
    EXPECT_DOUBLE_EQ(hour.billed(61.0 * 60.0), 7200.0);
    EXPECT_EQ(core::defaultBilling("hyperscaler").minimumSeconds, 60.0);
    EXPECT_EQ(core::defaultBilling("neocloud").unitSeconds, 60.0);
    EXPECT_EQ(core::defaultBilling("marketplace").unitSeconds, 1.0);
}

TEST(Recommendation, StartUpGrowsWithTheNodes) {
    // A minute on one node, 13 s more per doubling of the nodes: 16 nodes add 4 x 13 = 52 s (NCCL issue #1156's 2.5
    // minutes above a thousand GPUs is 128 nodes: 60 + 7 x 13 = 151 s).
    core::Scenario s = core::defaultScenario(catalog());
    core::PlanInputs in;
    EXPECT_DOUBLE_EQ(core::fixedCosts(s, gpu("h100-sxm"), in).startupSeconds, 60.0);
    s.gpus = 128;
    s.sharding = core::Sharding::Zero3;
    EXPECT_DOUBLE_EQ(core::fixedCosts(s, gpu("h100-sxm"), in).startupSeconds, 60.0 + 4.0 * 13.0);
    s.gpus = 1024;
    EXPECT_DOUBLE_EQ(core::fixedCosts(s, gpu("h100-sxm"), in).startupSeconds, 60.0 + 7.0 * 13.0);
}

TEST(Recommendation, TheChoiceAloneIsFoundWithoutTheCountsThatCannotBeatItsCost) {
    // The sizing table and the comparison want each card's chosen plan only: counts whose cost lower bound (the run's
    // FLOPs at the card's peak x MFU plus every card held through the fixed costs) exceeds the cheapest plan found
    // are skipped. The choice must be the one the whole search makes.
    std::vector<core::Scenario> runs{core::defaultScenario(catalog()), fromCatalog("llama-3.1-70b", core::Method::Full),
                                     fromCatalog("llama-3.1-70b", core::Method::Qlora),
                                     fromCatalog("qwen3-30b-a3b", core::Method::Full)};
    runs[1].precision = core::Precision::Bf16Fp32Master;
    for (const auto& s : runs) {
        for (const char* id : {"h100-sxm", "rtx-4090", "mi300x", "gaudi2", "a100-40gb-sxm"}) {
            core::PlanInputs whole;
            whole.datasetTokens = 1e9;
            core::PlanInputs choice = whole;
            choice.runnersUp = false;
            const core::CardPlan a = core::planOnCard(s, gpu(id), whole);
            const core::CardPlan b = core::planOnCard(s, gpu(id), choice);
            ASSERT_EQ(a.found, b.found) << s.model.name << " on " << id;
            if (!a.found) {
                continue;
            }
            EXPECT_EQ(a.best.scenario.gpus, b.best.scenario.gpus) << s.model.name << " on " << id;
            EXPECT_DOUBLE_EQ(core::costOf(a.best, whole), core::costOf(b.best, choice)) << s.model.name << " on " << id;
            EXPECT_LE(b.candidatesTried, a.candidatesTried);
        }
    }
}

TEST(Recommendation, TheChoiceOverTheCatalogSkipsOnlyCardsThatCannotBeatIt) {
    // chooseOverCatalog searches cards in the order of their least possible cost and stops when the next card's bound
    // exceeds the cheapest plan found: it must pick the card and plan that ranking every card's whole search picks,
    // for each objective, with and without a deadline, and search fewer cards under the cost objective.
    std::vector<core::Scenario> runs{core::defaultScenario(catalog()), fromCatalog("llama-3.1-70b", core::Method::Full),
                                     fromCatalog("llama-3.1-70b", core::Method::Qlora),
                                     fromCatalog("qwen3-30b-a3b", core::Method::Full),
                                     fromCatalog("llama-3.2-3b", core::Method::Lora)};
    std::size_t cardsSearched = 0, cardsInCatalog = 0;
    for (const auto& s : runs) {
        for (double tokens : {1e7, 1e9}) {
            for (auto objective : {core::Objective::Cost, core::Objective::Time, core::Objective::Balanced}) {
                for (std::optional<double> deadline : {std::optional<double>{}, std::optional<double>{2.0}}) {
                    core::PlanInputs in;
                    in.datasetTokens = tokens;
                    in.objective = objective;
                    in.deadlineHours = deadline;
                    const Pick whole = pick(s, in);
                    const auto choice = core::chooseOverCatalog(s, catalog().gpus, in);
                    const std::string what = s.model.name + " " + std::to_string(static_cast<int>(objective)) +
                                             " tokens " + std::to_string(tokens) + (deadline ? " deadline" : "");
                    ASSERT_EQ(choice.has_value(), whole.ranking.chosen >= 0) << what;
                    if (!choice) {
                        continue;
                    }
                    EXPECT_EQ(static_cast<int>(choice->index), whole.ranking.chosen) << what;
                    EXPECT_EQ(choice->plan.best.scenario.gpus, whole.chosen().best.scenario.gpus) << what;
                    EXPECT_DOUBLE_EQ(core::costOf(choice->plan.best, in), core::costOf(whole.chosen().best, in))
                        << what;
                    if (objective == core::Objective::Cost) {
                        cardsSearched += choice->cardsSearched;
                        cardsInCatalog += catalog().gpus.size();
                    }
                }
            }
        }
    }
    EXPECT_LT(cardsSearched, cardsInCatalog / 2) << "the bound should leave most cards unsearched";
}

TEST(Recommendation, NearTiesDoNotChainAndThePrunedChoiceIsTheWholeSearchsChoice) {
    // Four one-card machines, each faster than the last: $10.00, $10.04, $10.08 for the whole run, then $10.60. Costs
    // within 0.5% count as a tie that the faster plan wins, but only against the lowest cost: the window is
    // $10.00 × 1.005 = $10.05, so the choice is the second card ($10.04, faster than the first). Compared pairwise,
    // each of the first three would tie its neighbour and the chain would walk to the third ($10.08, 0.8% dearer than
    // the cheapest). The fourth is 6% dearer: its least cost (the FLOPs at its peak, the element-wise kernels at its
    // bandwidth, without the optimizer step or the memory floor) is beyond the window too, so the pruned search never
    // plans it, and must still agree with the whole search.
    core::GpuSpec base = gpu("h100-sxm");
    base.memoryGiBStated = base.memoryGiBUsable = 400; // every card holds the run on one card
    base.gpusPerNode = 1;
    base.multiNode = false;
    std::vector<core::GpuSpec> cards;
    core::Scenario s = fromCatalog("llama-3.1-8b", core::Method::Full);
    s.precision = core::Precision::Bf16;
    core::PlanInputs in;
    in.datasetTokens = 1e9;
    const double targets[] = {10.00, 10.04, 10.08, 10.60};
    const double peaks[] = {100, 150, 200, 300};
    for (int i = 0; i < 4; ++i) {
        core::GpuSpec card = base;
        card.id = "test-x" + std::to_string(i + 1);
        card.name = "Test X" + std::to_string(i + 1);
        card.bf16Tflops = peaks[i];
        // A published utilisation on each (else none sets the pruning's bar: an assumed speed ranks last).
        card.throughput = {.mfu = 0.25, .stack = "test", .citation = "test", .source = "test"};
        // Price the card so that its plan costs the target: the billed GPU-hours at $1 an hour, scaled.
        core::PlanInputs dollar = in;
        dollar.pricePerGpuHour = 1.0;
        const core::CardPlan atOneDollar = core::planOnCard(s, card, dollar);
        ASSERT_TRUE(atOneDollar.found);
        ASSERT_EQ(atOneDollar.best.scenario.gpus, 1);
        card.priceOnDemandUsdHour = targets[i] / atOneDollar.best.plan.gpuHours;
        cards.push_back(card);
    }
    const std::vector<core::CardPlan> plans = core::planCatalog(s, cards, in);
    for (int i = 0; i < 4; ++i) {
        ASSERT_NEAR(core::costOf(plans[static_cast<std::size_t>(i)].best, in), targets[i], 1e-6);
    }
    ASSERT_LT(plans[1].best.plan.wallHours, plans[0].best.plan.wallHours);
    EXPECT_EQ(core::rank(plans, in).chosen, 1);
    const auto choice = core::chooseOverCatalog(s, cards, in);
    ASSERT_TRUE(choice.has_value());
    EXPECT_EQ(choice->index, 1u);
    EXPECT_LT(choice->cardsSearched, 4u) << "the fourth card's least cost is beyond the window";
}

TEST(Recommendation, UnderSpotACardWithoutASpotOfferIsRankedOnDemand) {
    // A spot price of 0 means the card has no spot offer. Ranked at $0 it would win every comparison (and every count
    // would tie at $0, so the fastest, the most cards, would be rented); it is rented, and ranked, on demand instead.
    core::GpuSpec l4 = gpu("l4");
    l4.priceSpotUsdHour = 0;
    core::PlanInputs in;
    in.datasetTokens = 1e8;
    in.spot = true;
    const core::CardPlan p = core::planOnCard(core::defaultScenario(catalog()), l4, in);
    ASSERT_TRUE(p.found);
    EXPECT_DOUBLE_EQ(core::costOf(p.best, in), p.best.plan.costOnDemandUsd);
    EXPECT_GT(core::costOf(p.best, in), 0.0);
    EXPECT_DOUBLE_EQ(core::rankedHourlyPrice(l4, in), l4.priceOnDemandUsdHour);
    EXPECT_LE(p.best.scenario.gpus, 8); // not hundreds of free cards
}

TEST(Recommendation, ACardOfAssumedSpeedRanksAfterEveryCardOfKnownSpeed) {
    // Two one-card machines holding the run: the first with a published utilisation, the second with none (its time
    // rests on the 25% assumed for such cards) at a tenth of the price, so by cost alone it would be rented. A
    // practitioner rents the card whose speed is known and measures the other first: the first is chosen, and it is
    // also the cheapest and the fastest the ranking reports; the second is still planned.
    core::GpuSpec known = gpu("h100-sxm");
    known.memoryGiBStated = known.memoryGiBUsable = 400;
    known.gpusPerNode = 1;
    known.multiNode = false;
    known.id = "test-known";
    known.throughput = {.mfu = 0.40, .stack = "test", .citation = "test", .source = "test"};
    core::GpuSpec assumed = known;
    assumed.id = "test-assumed";
    assumed.throughput = {};
    assumed.priceOnDemandUsdHour = known.priceOnDemandUsdHour / 10.0;
    const core::Scenario s = fromCatalog("llama-3.1-8b", core::Method::Full);
    core::PlanInputs in;
    in.datasetTokens = 1e9;
    const std::vector<core::GpuSpec> cards{known, assumed};
    const std::vector<core::CardPlan> plans = core::planCatalog(s, cards, in);
    ASSERT_TRUE(plans[0].found && plans[1].found);
    ASSERT_LT(core::costOf(plans[1].best, in), core::costOf(plans[0].best, in));
    EXPECT_EQ(plans[1].best.plan.mfu.source, core::MfuSource::Unpublished);
    const core::Ranking k = core::rank(plans, in);
    EXPECT_EQ(k.chosen, 0);
    EXPECT_EQ(k.cheapest, 0);
    EXPECT_EQ(k.fastest, 0);
    const auto choice = core::chooseOverCatalog(s, cards, in);
    ASSERT_TRUE(choice.has_value());
    EXPECT_EQ(choice->index, 0u);
}
