#pragma once

#include "gpusizer/scenario/ModelArch.h"
#include "gpusizer/scenario/Result.h"
#include "gpusizer/scenario/Scenario.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpusizer::core {

/// Scale-up link between GPUs of one node.
struct GpuLink {
    std::string kind = "none"; ///< "nvlink3", "nvlink4", "nvlink5", "infinity-fabric", "pcie", "none"
    double bandwidthGBs = 0;   ///< per-GPU bidirectional bandwidth, GB/s (decimal)
};

/// Software a run may need that not every card runs. A catalog entry names the ones its card lacks, each with the
/// reason and its source; a scenario that needs one is not planned on that card (requiredSoftware, missingSoftware).
enum class SoftwareFeature {
    BitsandbytesQuantization, ///< bitsandbytes 4-bit / 8-bit layers (QLoRA's NF4 base, LLM.int8)
    BitsandbytesOptimizers,   ///< bitsandbytes 8-bit and paged optimizers
    FlashAttention2,          ///< the flash-attn package (attn_implementation="flash_attention_2")
    Deepspeed,                ///< the DeepSpeed engine (ZeRO, ZeRO-Offload)
    Fsdp,                     ///< PyTorch FSDP / FSDP2
    TritonKernels,            ///< Triton kernels: Liger, Cut Cross-Entropy
    Colossalai,               ///< ColossalAI's booster and its CUDA kernels (HybridAdam)
};
/// The feature's key in the catalog ("bitsandbytes-quantization", ...).
const char* toString(SoftwareFeature f);
/// Every feature, in declaration order.
const std::vector<SoftwareFeature>& allSoftwareFeatures();

/// A feature the card does not run, with the catalog's reason (and its source).
struct SoftwareGap {
    SoftwareFeature feature = SoftwareFeature::BitsandbytesQuantization;
    std::string reason;
};

/// Achieved training throughput published for a card: the share of its dense BF16 peak that dense training of a
/// Llama-class model reached, on a named software stack (docs/planning.md, "Real speeds per card").
struct TrainingThroughput {
    double mfu = 0;    ///< model-FLOPs utilisation; 0: nothing published (the planner's conservative default applies)
    std::string stack; ///< the stack it was measured on: "CUDA, PyTorch", "ROCm", "SynapseAI"
    std::string citation; ///< a short name of the source ("LLM Foundry benchmarks @061f2c7c")
    std::string source;   ///< where it is published, with what ran
};

/// How a provider bills a started instance: rounded up to a unit, with a minimum (seconds).
struct Billing {
    double unitSeconds = 1;     ///< per second: 1; per minute: 60; per hour: 3600
    double minimumSeconds = 60; ///< a started instance pays at least this
    /// Billed seconds for `seconds` of use.
    double billed(double seconds) const;
};

/// One GPU model with its published specifications and an illustrative price.
struct GpuSpec {
    std::string id;
    std::string vendor;
    std::string name;
    double memoryGiBStated = 0; ///< memory as the vendor states it ("80 GB" HBM is 80 GiB of cells)
    double memoryGiBUsable = 0; ///< what a training process can allocate (nvidia-smi total minus driver reserve)
    double bandwidthTBs = 0;    ///< memory bandwidth, TB/s (decimal)
    double bf16Tflops = 0;      ///< dense BF16/FP16 tensor TFLOPS (no sparsity)
    double fp8Tflops = 0;       ///< dense FP8 tensor TFLOPS, 0 when unsupported
    double fp32Tflops = 0;      ///< FP32 (non-tensor) TFLOPS
    int pcieGen = 4;
    int pcieLanes = 16;
    GpuLink link;
    int gpusPerNode = 8;
    bool ecc = true;
    std::string formFactor; ///< "SXM", "PCIe", "OAM", ...
    int tdpWatts = 0;
    double priceOnDemandUsdHour = 0; ///< illustrative, see priceDate and priceNote
    double priceSpotUsdHour = 0;
    std::string priceDate;
    /// Where such a price is listed: "marketplace" (hosts set prices: Vast.ai), "neocloud" (GPU clouds: Lambda,
    /// RunPod), "hyperscaler" (AWS, Google Cloud, Azure); empty when not stated.
    std::string priceKind;
    std::string priceNote;
    std::vector<std::string> sources;
    bool bf16 = true; ///< native bf16 (compute capability 8.0 and up on NVIDIA); false: plan fp16 instead
    /// CUDA compute capability (9.0 for Hopper), 0 for other vendors' cards: which kernels PyTorch picks (its CUTLASS
    /// grouped GEMM runs on 9.x and 10.x only).
    double computeCapability = 0;
    int smCount = 0; ///< streaming multiprocessors (0: not stated): how many output tiles a GEMM kernel runs at once
    double hostRamGiBPerGpu = 0; ///< host RAM of a typical node, per GPU (0: not published; the planner's default)
    Billing billing;             ///< how the price is billed (the price kind's usual terms unless stated)
    TrainingThroughput throughput;
    std::string softwareStack;      ///< the card's stack: "CUDA", "ROCm", "SynapseAI"
    std::vector<SoftwareGap> lacks; ///< features the card does not run, each with its reason
    /// Whether providers rent this card as multi-node clusters with a network between nodes (false: one node at most,
    /// unless the user names a network).
    bool multiNode = true;
    std::string notes; ///< the catalog's note on the card, shown where it is recommended

    /// The card's gap for a feature, or nullptr when it runs it.
    const SoftwareGap* lacking(SoftwareFeature f) const;

    /// Usable memory in bytes (binary GiB).
    std::int64_t usableBytes() const;
};

/// One model people fine-tune, with its architecture and published parameter count.
struct ModelEntry {
    std::string id;
    std::string name;
    std::string family;
    ModelArch arch;
    double publishedParamsBillion = 0;
    std::vector<std::string> sources;
};

/// The node a card sits in: NVLink SHARP on NVIDIA's NVLink-4/5 SXM boards (HGX, NVSwitch), NVLink on other NVLink
/// cards and on AMD's Infinity Fabric, PCIe otherwise.
NodeFabric nodeFabricOf(const GpuSpec& gpu);
/// Puts the scenario's GPUs on this card's nodes: the fabric and GPUs per node that size NCCL's buffers.
void placeOnCard(Scenario& s, const GpuSpec& gpu);

/// A catalog entry that was left out, and why.
struct RejectedEntry {
    std::string entryId; ///< the id, or "#index" when the id itself is unusable
    Error error;
};

/// What a catalog file yielded: the valid entries and the rejected ones (the rest still loads).
template <class T>
struct CatalogLoad {
    std::vector<T> entries;
    std::vector<RejectedEntry> rejected;
};

/// Highest catalog schema this build reads.
inline constexpr int kCatalogSchemaVersion = 1;

/// Parses a GPU catalog ({"schemaVersion": 1, "gpus": [...]}). A broken file fails as a whole; a bad entry
/// is left out and reported with the file, the entry id, the field and the reason.
Result<CatalogLoad<GpuSpec>> loadGpuCatalog(std::string_view bytes, std::string_view fileName);

/// Parses a model catalog ({"schemaVersion": 1, "models": [...]}), each architecture in config.json keys.
Result<CatalogLoad<ModelEntry>> loadModelCatalog(std::string_view bytes, std::string_view fileName);

/// A user's prices for catalog GPUs (prices*.json in the catalog folder), replacing the catalog's illustrative ones.
struct PriceOverride {
    std::string id; ///< the GPU's catalog id
    double onDemandUsdHour = 0;
    double spotUsdHour = 0;
    std::string asOf; ///< "YYYY-MM" or "YYYY-MM-DD"
    std::string kind; ///< marketplace, neocloud, hyperscaler, or empty
    std::string note;
    Billing billing; ///< "billing": {"per": "second" | "minute" | "hour", "minimum_minutes": N}; else the kind's
};
/// The usual billing of a price kind when an entry does not state its own (sources in docs/planning.md).
Billing defaultBilling(const std::string& priceKind);
/// {"schemaVersion": 1, "prices": [{"id": "h100-sxm", "on_demand_usd_hour": 2.49, "spot_usd_hour": 1.25,
/// "as_of": "2026-11", "kind": "neocloud", "note": "…", "billing": {"per": "minute", "minimum_minutes": 1}}]}
Result<CatalogLoad<PriceOverride>> loadPriceFile(std::string_view bytes, std::string_view fileName);

/// Entries of `overrides` replace entries of `base` with the same id; new ids are appended.
template <class T>
std::vector<T> mergeById(std::vector<T> base, const std::vector<T>& overrides) {
    for (const auto& entry : overrides) {
        bool replaced = false;
        for (auto& existing : base) {
            if (existing.id == entry.id) {
                existing = entry;
                replaced = true;
                break;
            }
        }
        if (!replaced) {
            base.push_back(entry);
        }
    }
    return base;
}

/// Both catalogs, as the estimator's callers use them.
struct Catalog {
    std::vector<GpuSpec> gpus;
    std::vector<ModelEntry> models;

    const GpuSpec* findGpu(std::string_view id) const;
    const ModelEntry* findModel(std::string_view id) const;
};

} // namespace gpusizer::core
