#include "Commands.h"
#include "gpusizer/memory/Estimate.h"
#include "gpusizer/present/EstimateText.h"
#include "gpusizer/present/Format.h"
#include "gpusizer/present/Json.h"
#include "gpusizer/present/Table.h"
#include "gpusizer/scenario/Labels.h"

#include <iomanip>

namespace gpusizer::cli {

int estimateCommand(const Args& a, std::ostream& out, std::ostream& err) {
    if (a.positional.empty()) {
        err << "gpusizer-cli: estimate needs a scenario file or training configs\n" << usageText();
        return kUsage;
    }
    const auto loaded = loadCatalogs(err);
    const auto scenario = loadScenario(a, loaded.catalog, err);
    if (!scenario) {
        return kBadInput;
    }
    const core::Scenario& s = *scenario;
    const core::Estimate e = core::estimate(s);
    if (a.json) {
        out << present::estimateJson(e).dump(2) << "\n";
        return kOk;
    }
    const std::string modelName = s.modelId.empty() ? s.model.name : s.modelId;
    out << "Model       " << modelName << "  (" << present::params(e.params.total) << " parameters, "
        << present::params(e.trainableParams) << " trainable)\n";
    out << "Run         " << core::toString(s.method);
    if (core::otherAdapter(s)) {
        out << " (" << core::toString(s.lora.kind) << ")";
    }
    if (core::freezesLayers(s)) {
        out << " (last " << s.trainableLayers << " of " << s.model.numLayers << " layers)";
    }
    if (s.runKind != core::RunKind::Sft) {
        out << ", " << core::toString(s.runKind);
        if (s.runKind == core::RunKind::Grpo) {
            out << " (" << s.numGenerations << " completions per prompt of " << s.completionLength << " tokens, "
                << core::toString(s.generation) << (core::usesReferenceModel(s) ? ", reference model" : "") << ")";
        } else if (s.runKind == core::RunKind::Ppo) {
            out << " (responses of " << s.completionLength << " tokens, " << s.ppoEpochs
                << " epochs per rollout, value and reward models)";
        } else if (core::usesReferenceModel(s)) {
            out << " (reference " << core::toString(s.referenceLogProbs) << ")";
        }
    }
    out << ", " << core::toString(e.precision) << ", " << core::toString(s.optimizer) << ", micro-batch "
        << s.microBatch << (core::pairedExamples(s) ? " pairs" : "") << " × " << s.seqLen << " tokens, checkpointing "
        << core::toString(s.checkpointing) << ", attention " << core::toString(s.attention) << "\n";
    out << "Layout      " << s.gpus << (s.gpus == 1 ? " GPU" : " GPUs") << ", sharding " << core::toString(s.sharding)
        << " (" << core::toString(e.profile.engine) << "), TP " << s.tensorParallel << ", PP " << s.pipelineParallel
        << ", offload " << core::toString(s.offload) << "\n\n";
    out << "Per GPU, at the peak (" << core::label(e.peakMoment).english() << "):\n";
    out << present::renderText(
        present::componentTable(e).select({present::CompKey, present::CompBytes, present::CompShare}), "  ");
    out << "  " << std::left << std::setw(20) << "allocated peak" << std::right << std::setw(12)
        << present::gib(e.allocatedPeakBytes) << "   (torch.cuda.max_memory_allocated)\n";
    if (e.geminiCachedChunkBytes > 0) {
        out << "  " << std::left << std::setw(20) << "allocated with room" << std::right << std::setw(12)
            << present::gib(e.measuredAllocatedBytes())
            << "   (with the gathered chunks Gemini's auto placement keeps while there is room)\n";
    }
    out << "  " << std::left << std::setw(20) << "reserved peak" << std::right << std::setw(12)
        << present::gib(e.reservedPeakBytes) << "   (in the device figure the fit uses)\n";
    out << "  " << std::left << std::setw(20) << "reserved with room" << std::right << std::setw(12)
        << present::gib(e.measuredReservedBytes()) << "   (torch.cuda.max_memory_reserved on a card with room)\n";
    out << "  " << std::left << std::setw(20) << "device" << std::right << std::setw(12) << present::gib(e.deviceBytes)
        << "   (nvidia-smi; expected " << present::gib(e.bandLowBytes) << " - " << present::gib(e.bandHighBytes)
        << ")\n";
    if (s.gpus > 1) {
        out << "Total across " << s.gpus << " GPUs: " << present::gibTotal(e.deviceBytes, s.gpus) << "\n";
    }
    if (e.cpuOffloadBytesTotal > 0) {
        out << "Host RAM for offload: " << present::gib(e.cpuOffloadBytesPerGpu) << " per GPU, "
            << present::gib(e.cpuOffloadBytesTotal) << " total\n";
    }
    out << "\nWarnings:\n";
    for (const auto& w : e.warnings) {
        out << "  - " << w.message() << "\n";
    }
    out << "Assumptions:\n";
    for (const auto& text : e.assumptions) {
        out << "  - " << text.english() << "\n";
    }
    return kOk;
}

} // namespace gpusizer::cli
