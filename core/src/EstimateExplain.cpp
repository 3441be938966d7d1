#include "EstimatorParts.h"
#include "gpusizer/core/Units.h"

#include <sstream>

namespace gpusizer::core::detail {

namespace {

std::string number(double v, int precision = 3) {
    std::ostringstream os;
    os.precision(precision);
    os << v;
    return os.str();
}

void addWarnings(Estimate& e, const Scenario& s) {
    auto warn = [&](std::string code, std::string message) {
        e.warnings.push_back({std::move(code), std::move(message)});
    };
    const auto& arch = s.model;
    if (arch.sizeDerived) {
        warn("size_derived_model", "The architecture was derived from the parameter count alone; expect ±25%.");
    }
    warn("longest_sequence", "Activations and logits are sized for seq_len tokens per sequence: use your longest "
                             "sequence (or packing length), not the average.");
    if (s.method == Method::Qlora) {
        warn("qlora_merge", "Merge a QLoRA adapter into the 16-bit base model, not into the 4-bit one.");
    }
    if (s.attention == Attention::Eager && s.seqLen >= 4096) {
        warn("eager_long_sequence", "Eager attention stores seq_len² scores per head: use SDPA or FlashAttention.");
    }
    if (arch.attentionLogitSoftcap > 0 && s.attention == Attention::Sdpa) {
        warn("softcap_needs_eager", "This model soft-caps attention logits; SDPA ignores the cap (transformers "
                                    "recommends eager attention, or flash-attention >= 2.6).");
    }
    if (s.optimizer == Optimizer::PagedAdamW || s.optimizer == Optimizer::PagedAdamW8bit) {
        warn("paged_optimizer", "Paged optimizer states live in CUDA managed memory: nvidia-smi shows them, "
                                "torch.cuda.max_memory_allocated does not.");
    }
    if (s.optimizerInBackward && s.gradientAccumulation > 1) {
        warn("optimizer_in_backward_accumulation", "Optimizer-in-backward cannot accumulate gradients; "
                                                   "gradient_accumulation is ignored by most frameworks.");
    }
    if (s.tensorParallel > 1 || s.pipelineParallel > 1) {
        warn("even_split", "Tensor/pipeline parallel assume an even split of parameters and sequence parallelism.");
    }
    if (s.offload != Offload::None && e.profile.engine == ShardingEngine::Fsdp1 && s.method == Method::Full) {
        warn("fsdp1_offload_gradients", "FSDP1 with CPU offload keeps each unit's sharded gradient on the GPU until "
                                        "backward ends (pytorch#106029); counted here.");
    }
}

} // namespace

void explain(Estimate& e, const Scenario& s, const ExplainInputs& why) {
    addWarnings(e, s);
    const FrameworkProfile& prof = e.profile;
    auto assume = [&](std::string text) { e.assumptions.push_back(std::move(text)); };
    assume("Parameters: " + number(why.trainB) + " B per trainable, " +
           number(s.method == Method::Qlora ? 0.0 : why.paramB) + " B per frozen 16/32-bit weight; gradients " +
           number(why.trainB) + " B; master copy " + number(why.masterB) + " B; optimizer state unit " +
           number(why.stateUnit) + " B.");
    if (e.peakMoment == PeakMoment::ForwardEnd) {
        assume("Peak moment: forward_end (the loss and its backward, with every saved activation).");
    } else {
        // The logits column reads 0 at the other moments: say what they were and why they are gone.
        assume("Peak moment: " + std::string(toString(e.peakMoment)) + "; the logits (" +
               number(why.logitsAtLoss / kGiB) + " GiB at the loss) are freed before it.");
    }
    assume(std::string("Framework profile '") + toString(s.framework) + "': loss " +
           (prof.lossUpcastsLogits ? "upcasts logits to fp32" : "stays in the compute dtype") + ", adapters " +
           (prof.adaptersInFp32 ? "fp32" : "in the model dtype") + ", optimizer step " + toString(prof.optimizerStep) +
           ", selective checkpointing " + toString(prof.selectivePolicy) + ".");
    if (e.dataParallel > 1 || s.offload != Offload::None) {
        std::string text = std::string("Sharding engine ") + toString(prof.engine) + ", ZeRO stage " +
                           std::to_string(why.stage) + " in effect";
        if (prof.engine == ShardingEngine::Fsdp1 && s.method != Method::Full) {
            text += prof.adaptersWrappedSeparately ? "; adapters wrapped in their own FSDP units"
                                                   : "; adapters share each block's flat parameter";
        }
        assume(text + ".");
    }
    if (s.overheadCorrectionBytes != 0) {
        assume("Overhead corrected by " + std::to_string(s.overheadCorrectionBytes / (1LL << 20)) +
               " MiB from a calibration against measured runs.");
    }
    const std::int64_t context = s.cudaContextBytes.value_or(512LL << 20);
    assume("CUDA context " + std::to_string(context >> 20) + " MiB" +
           (s.cudaContextBytes ? " (given)" : " (default, lazy module loading)") +
           "; allocator reserve 5% of the allocated peak" +
           (why.cachedPool > 0 ? " + " + number(why.cachedPool / kGiB) +
                                     " GiB of gathered-parameter blocks cached by "
                                     "the unshard stream"
                               : std::string()) +
           ".");
    assume("Expected range: -" + number(e.bandDownShare * 100.0, 2) + "% / +" + number(e.bandUpShare * 100.0, 2) +
           "%, from the measured errors of this kind of run (docs/accuracy.md).");
}

} // namespace gpusizer::core::detail
