#include "gpusizer/present/Json.h"

#include "gpusizer/present/AdviceText.h"
#include "gpusizer/present/BillText.h"
#include "gpusizer/present/PlanText.h"
#include "gpusizer/scenario/HfConfig.h"

#include <cmath>

namespace gpusizer::present {

using nlohmann::json;
using namespace core;

namespace {

json warningsJson(const std::vector<Warning>& warnings) {
    json list = json::array();
    for (const auto& w : warnings) {
        list.push_back({{"code", w.code}, {"message", w.message()}});
    }
    return list;
}

json englishJson(const std::vector<Words>& texts) {
    json list = json::array();
    for (const auto& t : texts) {
        list.push_back(t.english());
    }
    return list;
}

} // namespace

json estimateJson(const Estimate& e) {
    json components = json::object();
    for (Component c : kAllComponents) {
        components[componentKey(c)] = e.perGpu[c];
    }
    const json warnings = warningsJson(e.warnings);
    const auto& a = e.activationPerTokenLayer;
    json out{
        {"format", "gpusizer-estimate"},
        {"version", 1},
        {"params",
         {{"total", e.params.total}, {"trainable", e.trainableParams}, {"active_per_token", e.params.activePerToken}}},
        {"per_gpu",
         {{"components", components},
          {"peak_moment", toString(e.peakMoment)},
          {"allocated_peak_bytes", e.allocatedPeakBytes},
          {"reserved_peak_bytes", e.reservedPeakBytes},
          {"allocated_with_room_bytes", e.measuredAllocatedBytes()},
          {"reserved_with_room_bytes", e.measuredReservedBytes()},
          {"device_bytes", e.deviceBytes},
          {"paged_optimizer_bytes", e.pagedOptimizerBytes},
          {"band", {{"low_bytes", e.bandLowBytes}, {"high_bytes", e.bandHighBytes}}}}},
        {"data_parallel", e.dataParallel},
        {"activation_bytes_per_token_per_layer",
         {{"norms", a.norms},
          {"linear_inputs", a.linearInputs},
          {"attention", a.attention},
          {"attention_scores", a.attentionScores},
          {"mlp", a.mlp},
          {"lora", a.lora},
          {"dropout", a.dropout}}},
        {"logits_bytes_per_element", e.logitsBytesPerElement},
        {"cpu_offload_bytes", e.cpuOffloadBytesTotal},
        {"cpu_offload_bytes_per_gpu", e.cpuOffloadBytesPerGpu},
        {"warnings", warnings},
        {"assumptions", englishJson(e.assumptions)},
    };
    if (e.referenceModelBytes > 0) {
        out["reference_model_bytes_per_gpu"] = e.referenceModelBytes;
    }
    if (e.generates) { // GRPO: what its generation holds (docs/memory-model.md §9)
        out["generation"] = {{"kv_cache_bytes_per_gpu", e.generationKvCacheBytes},
                             {"vllm_weights_bytes", e.vllmWeightsBytes},
                             {"vllm_share_bytes", e.vllmShareBytes},
                             {"vllm_smallest_share", e.vllmSmallestShare},
                             {"vllm_largest_share", e.vllmLargestShare},
                             {"vllm_server_gpu_bytes", e.vllmServerGpuBytes}};
    }
    if (e.imageLanguageTokens > 0) { // a vision-language model (docs/memory-model.md §10)
        out["images"] = {{"resized_width", e.imageWidth},
                         {"resized_height", e.imageHeight},
                         {"encoder_tokens_per_image", e.imageEncoderTokens},
                         {"language_tokens_per_image", e.imageLanguageTokens},
                         {"vision_tower_params", e.params.visionTower},
                         {"projector_params", e.params.visionProjector},
                         {"vision_activation_bytes_per_gpu", e.visionActivationBytes}};
    }
    return out;
}

json candidateJson(const Candidate& c, const GpuSpec& gpu) {
    const auto& s = c.scenario;
    json j{{"gpus", s.gpus},
           {"sharding", toString(s.sharding)},
           {"sharding_engine", toString(profileFor(s).engine)},
           {"tensor_parallel", s.tensorParallel},
           {"pipeline_parallel", s.pipelineParallel},
           {"expert_parallel", s.expertParallel},
           {"offload", toString(s.offload)},
           {"micro_batch", s.microBatch},
           {"gradient_accumulation", s.gradientAccumulation},
           {"gradient_checkpointing", toString(s.checkpointing)},
           {"precision", toString(s.precision)},
           {"layout", english(layoutParts(s))},
           {"device_bytes_per_gpu", c.deviceBytes},
           {"margin_share", c.marginShare},
           {"verdict", english(verdictWord(c.verdict))},
           {"fits", c.fits()},
           {"host_ram_bytes_per_node", c.hostRamPerNodeBytes},
           {"host_ram_limit_bytes_per_node", c.hostRamLimitBytes},
           {"fp16_instead_of_bf16", c.fp16Instead},
           {"bf16_instead_of_float8", c.bf16InsteadOfFloat8},
           {"global_batch_sequences", c.globalBatchSequences}};
    if (!c.fits()) {
        j["why_not"] = english(whyNot(c));
        if (c.why == Infeasible::GpuMemory) {
            j["largest_component"] = componentKey(c.largestComponent); // the stable key; why_not has it in words
        }
        return j;
    }
    const auto& p = c.plan;
    j["step_seconds"] = p.step.stepSeconds;
    j["compute_seconds"] = p.step.computeSeconds;
    j["exposed_comm_seconds"] = p.step.exposedCommSeconds;
    j["offload_seconds"] = p.step.offloadSeconds;
    j["optimizer_step_seconds"] = p.step.optimizerStepSeconds;
    j["generation_seconds"] = p.step.generationSeconds;
    j["comm_bytes_per_gpu_per_step"] = static_cast<std::int64_t>(p.step.commBytesPerGpu);
    j["link"] = english(linkName(p.step.link, gpu));
    j["tokens_per_second"] = p.step.tokensPerSecond;
    j["steps"] = p.steps;
    j["step_hours"] = p.stepHours;
    j["fixed_seconds"] = {{"provision", p.fixed.provisionSeconds}, {"environment", p.fixed.environmentSeconds},
                          {"download", p.fixed.downloadSeconds},   {"load", p.fixed.loadSeconds},
                          {"startup", p.fixed.startupSeconds},     {"final_save", p.fixed.finalSaveSeconds},
                          {"copy_out", p.fixed.copyOutSeconds}};
    j["mfu"] = p.mfu.mfu;
    j["mfu_source"] = p.mfu.source == MfuSource::User        ? "user"
                      : p.mfu.source == MfuSource::Published ? "published"
                                                             : "unpublished";
    j["wall_hours"] = p.wallHours;
    j["gpu_hours"] = p.gpuHours;
    j["cost_on_demand_usd"] = p.costOnDemandUsd;
    j["cost_spot_usd"] = p.costSpotUsd;
    j["checkpoint_bytes"] = static_cast<std::int64_t>(p.checkpointBytes);
    j["storage_usd"] = p.storageUsd;
    return j;
}

namespace {

json cardPlanJson(const CardPlan& r, const Candidate& asIs, const PlanInputs& in) {
    json j{{"gpu", r.gpu->id}, {"fits", r.found}};
    if (!r.unsupported.empty()) {
        j["cannot_run"] = english(softwareGaps(r.unsupported));
    }
    j["your_layout"] = candidateJson(asIs, *r.gpu);
    if (r.fewerCards) {
        j["fewer_cards"] = candidateJson(*r.fewerCards, *r.gpu);
        j["why_fewer_fail"] = english(whyNot(*r.fewerCards));
    }
    if (!r.found) {
        return j;
    }
    j["chosen"] = candidateJson(r.best, *r.gpu);
    json runners = json::array();
    for (const auto& c : r.runnersUp) {
        json rj = candidateJson(c, *r.gpu);
        rj["why_lost"] = english(whyLost(r.best, c, in));
        runners.push_back(rj);
    }
    j["runners_up"] = runners;
    return j;
}

} // namespace

json fitPlanJson(bool withCost, const std::vector<FitRow>& rows, const Ranking& ranking, const PlanInputs& inputs,
                 double margin) {
    json list = json::array();
    for (const auto& r : rows) {
        list.push_back(cardPlanJson(r.best, r.asIs, inputs));
    }
    auto idOf = [&](int i) { return i < 0 ? json(nullptr) : json(rows[static_cast<std::size_t>(i)].gpu->id); };
    return json{
        {"format", withCost ? "gpusizer-plan" : "gpusizer-fit"},
        {"version", 2},
        {"inputs",
         {{"objective", toString(inputs.objective)},
          {"objective_rule", english(objectiveRule(inputs))},
          {"margin_share", margin},
          {"network", toString(inputs.cluster.network)},
          {"max_gpus", inputs.maxGpus},
          {"allow_offload", inputs.allowOffload},
          {"dataset_tokens", inputs.datasetTokens},
          {"dataset_tokens_stated", inputs.datasetTokensStated},
          {"epochs", inputs.epochs},
          {"mfu", inputs.mfu ? json(*inputs.mfu) : json(nullptr)}, // null: each card's own (see each plan's mfu_source)
          {"deadline_hours", inputs.deadlineHours ? json(*inputs.deadlineHours) : json(nullptr)},
          {"global_batch", inputs.globalBatch.flexible ? json{{"min_sequences", inputs.globalBatch.minSequences},
                                                              {"max_sequences", inputs.globalBatch.maxSequences}}
                                                       : json("the scenario's")},
          {"spot", inputs.spot}}},
        {"results", list},
        {"ranking",
         {{"chosen", idOf(ranking.chosen)}, {"cheapest", idOf(ranking.cheapest)}, {"fastest", idOf(ranking.fastest)}}}};
}

namespace {

/// JSON has no infinity: an expectation without end (a spot run that never finishes) is null.
json finiteOrNull(double v) {
    return std::isfinite(v) ? json(v) : json(nullptr);
}

} // namespace

json billJson(const RunBill& b, const PlanInputs& in) {
    return json{
        {"assumptions",
         {{"storage_write_gb_per_s", in.bill.storageWriteGBs},
          {"storage_read_gb_per_s", in.bill.storageReadGBs},
          {"restart_minutes", in.bill.restartMinutes},
          {"interruptions_per_node_day", in.bill.interruptionsPerDay},
          {"checkpoint_interval_hours_set",
           in.bill.checkpointIntervalHours ? json(*in.bill.checkpointIntervalHours) : json(nullptr)},
          {"egress_usd_per_gb", in.bill.egressUsdPerGb},
          {"keep_days", in.bill.keepDays},
          {"retained_checkpoints", in.retainedCheckpoints},
          {"storage_usd_per_gb_month", in.storageUsdPerGbMonth}}},
        {"checkpoint_bytes", static_cast<std::int64_t>(b.checkpoint.bytes)},
        {"checkpoint_writers", b.checkpoint.writers},
        {"checkpoint_write_seconds", b.checkpoint.writeSeconds},
        {"checkpoint_interval_hours", b.intervalHours},
        {"recommended_interval_hours", b.recommendedIntervalHours},
        {"checkpoint_share", b.checkpointShare / (1.0 + b.checkpointShare)},
        {"compute_hours", b.computeHours},
        {"nodes", b.nodes},
        {"on_demand",
         {{"wall_hours", b.onDemandWallHours}, {"gpu_usd", b.onDemandComputeUsd}, {"total_usd", b.totalOnDemandUsd}}},
        {"spot",
         {{"offered", b.spotOffered},
          {"finishes", b.spotFinishes},
          {"pays", b.spotPays},
          {"mean_hours_between_interruptions", finiteOrNull(b.spotMeanHoursBetweenInterruptions)},
          {"expected_interruptions", finiteOrNull(b.spotInterruptions)},
          {"wall_hours", finiteOrNull(b.spotWallHours)},
          {"gpu_usd", finiteOrNull(b.spotComputeUsd)},
          {"total_usd", finiteOrNull(b.totalSpotUsd)}}},
        {"storage_usd", b.storageUsd},
        {"storage_on_demand_usd", b.storageOnDemandUsd},
        {"storage_spot_usd", finiteOrNull(b.storageSpotUsd)},
        {"final_bytes", static_cast<std::int64_t>(b.finalBytes)},
        {"egress_bytes", static_cast<std::int64_t>(b.egressBytes)},
        {"egress_usd", b.egressUsd},
        {"disk_bytes", static_cast<std::int64_t>(b.diskBytes)},
        {"stopped_usd_per_day", b.stoppedUsdPerDay},
        {"cluster_usd_per_hour", b.clusterUsdPerHour},
        {"cleanup", englishJson(cleanupChecklist(b, in))},
    };
}

json trialJson(const TrialHour& t) {
    if (!t.gpu) {
        return nullptr;
    }
    static const char* const kScopes[] = {"whole_rental", "one_replica", "one_node", "first_hour"};
    return json{{"gpu", t.gpu->id},
                {"gpus", t.plan.scenario.gpus},
                {"layout", english(layoutParts(t.plan.scenario))},
                {"scope", kScopes[static_cast<int>(t.scope)]},
                {"device_bytes_per_gpu", t.plan.deviceBytes},
                {"rental_gpus", t.rental.scenario.gpus},
                {"rental_device_bytes_per_gpu", t.rental.deviceBytes},
                {"setup_seconds", t.setupSeconds},
                {"usd_for_hour", t.usdForHour},
                {"steps_in_hour", t.stepsInHour},
                {"usd_for_test", t.usdForTest},
                {"sentence", english(trialSentence(t))}};
}

json adviceJson(const OomAdvice& advice, const Scenario& scenario, const GpuSpec& gpu, const PlanInputs& inputs) {
    json steps = json::array();
    for (const auto& step : advice.steps) {
        json j{{"fix", toString(step.kind)}, {"applicable", step.applicable}, {"price", english(fixPrice(step.kind))}};
        if (step.applicable) {
            j["change"] = english(fixChange(step, scenario, gpu, inputs));
            j["saving_bytes"] = step.savingAlone;
            j["device_bytes_after"] = step.deviceAfterAlone;
            j["fits_alone"] = step.fitsAlone;
        } else {
            j["not_applicable_because"] = english(fixBlocker(step.blocker));
        }
        steps.push_back(j);
    }
    json doc{{"format", "gpusizer-advice"},
             {"version", 1},
             {"gpu", gpu.id},
             {"device_bytes", advice.deviceBytes},
             {"usable_bytes", advice.usableBytes},
             {"fits", advice.fitsAlready},
             {"steps", steps}};
    if (advice.fittingScenario) {
        json combination = json::array();
        for (auto kind : advice.combination) {
            combination.push_back(toString(kind));
        }
        doc["first_fitting_combination"] = {{"fixes", combination}, {"device_bytes", advice.deviceAfterCombination}};
    }
    return doc;
}

json sizingJson(const std::vector<SizingRow>& rows, const Scenario& scenario) {
    auto cellJson = [](const SizingCell& c) {
        return c.gpu == nullptr ? json(nullptr)
                                : json{{"gpu", c.gpu->id},
                                       {"cards", c.cards},
                                       {"device_bytes_per_gpu", c.devicePerGpu},
                                       {"layout", english(layoutParts(c.layout))},
                                       {"wall_hours", c.wallHours},
                                       {"cost_usd", c.costUsd}};
    };
    json list = json::array();
    for (const auto& r : rows) {
        list.push_back({{"label", english(sizingLabel(r))},
                        {"params", r.params},
                        {"qlora", cellJson(r.qlora)},
                        {"lora", cellJson(r.lora)},
                        {"full", cellJson(r.full)}});
    }
    return json{{"format", "gpusizer-sizing-table"},
                {"version", 1},
                {"seq_len", scenario.seqLen},
                {"micro_batch", scenario.microBatch},
                {"rows", list}};
}

json comparisonJson(const Measurement& measurement, const MeasuredComparison& comparison) {
    json rows = json::array();
    for (const auto& r : comparison.rows) {
        json j{{"what", r.what}, {"available", r.available}, {"estimated", r.estimated}};
        if (r.available) {
            j["measured"] = r.measured;
            j["error_share"] = r.errorShare;
        }
        rows.push_back(j);
    }
    return json{{"format", "gpusizer-comparison"},
                {"version", 1},
                {"device", measurement.device},
                {"cpu_run", measurement.cpuRun()},
                {"gpu", comparison.gpu != nullptr ? json(comparison.gpu->id) : json(nullptr)},
                {"rows", rows},
                {"notes", warningsJson(comparison.notes)}};
}

json gpusJson(const Catalog& catalog) {
    json list = json::array();
    for (const auto& g : catalog.gpus) {
        list.push_back({{"id", g.id},
                        {"vendor", g.vendor},
                        {"name", g.name},
                        {"memory_gib", g.memoryGiBStated},
                        {"usable_gib", g.memoryGiBUsable},
                        {"bandwidth_tbs", g.bandwidthTBs},
                        {"bf16_tflops", g.bf16Tflops},
                        {"fp8_tflops", g.fp8Tflops},
                        {"link", g.link.kind},
                        {"link_gbs", g.link.bandwidthGBs},
                        {"price_on_demand_usd_hour", g.priceOnDemandUsdHour},
                        {"price_spot_usd_hour", g.priceSpotUsdHour}});
    }
    return json{{"format", "gpusizer-gpus"}, {"version", 1}, {"gpus", list}};
}

json modelsJson(const Catalog& catalog) {
    json list = json::array();
    for (const auto& m : catalog.models) {
        list.push_back({{"id", m.id},
                        {"name", m.name},
                        {"family", m.family},
                        {"params", countParams(m.arch).total},
                        {"published_params_billion", m.publishedParamsBillion},
                        {"config", archToHfConfig(m.arch)}});
    }
    return json{{"format", "gpusizer-models"}, {"version", 1}, {"models", list}};
}

json importJson(const ImportedArch& imported) {
    const auto params = countParams(imported.arch);
    json doc{{"format", "gpusizer-import"},
             {"version", 1},
             {"model_type", imported.modelType},
             {"params", {{"total", params.total}, {"active_per_token", params.activePerToken}}},
             {"config", archToHfConfig(imported.arch)},
             {"warnings", warningsJson(imported.warnings)}};
    if (imported.weightBytes) {
        doc["weight_bytes"] = *imported.weightBytes;
    }
    return doc;
}

} // namespace gpusizer::present
