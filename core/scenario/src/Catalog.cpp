#include "gpusizer/scenario/Catalog.h"

#include "gpusizer/scenario/HfConfig.h"
#include "gpusizer/scenario/JsonRead.h"
#include "gpusizer/scenario/Scenario.h"
#include "gpusizer/scenario/Units.h"
#include "gpusizer/scenario/Validate.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>

namespace gpusizer::core {

using detail::ObjectReader;
using nlohmann::json;

std::int64_t GpuSpec::usableBytes() const {
    return gibToBytes(memoryGiBUsable);
}

const SoftwareGap* GpuSpec::lacking(SoftwareFeature f) const {
    const auto it = std::find_if(lacks.begin(), lacks.end(), [&](const SoftwareGap& g) { return g.feature == f; });
    return it == lacks.end() ? nullptr : &*it;
}

double Billing::billed(double seconds) const {
    const double unit = std::max(1.0, unitSeconds);
    return std::max(minimumSeconds, std::ceil(std::max(0.0, seconds) / unit) * unit);
}

Billing defaultBilling(const std::string& priceKind) {
    // Hyperscalers bill per second after a one-minute minimum (AWS EC2 per-second billing, 2017-10-02; Google Compute
    // Engine "Billing model"); GPU clouds in one-minute increments (Lambda "On-Demand Cloud" billing); marketplaces
    // per second (Vast.ai billing help; RunPod billing). docs/planning.md, "Billing".
    if (priceKind == "hyperscaler") {
        return {1.0, 60.0};
    }
    if (priceKind == "marketplace") {
        return {1.0, 1.0};
    }
    return {60.0, 60.0};
}

const char* toString(SoftwareFeature f) {
    switch (f) {
    case SoftwareFeature::BitsandbytesQuantization:
        return "bitsandbytes-quantization";
    case SoftwareFeature::BitsandbytesOptimizers:
        return "bitsandbytes-optimizers";
    case SoftwareFeature::FlashAttention2:
        return "flash-attention-2";
    case SoftwareFeature::Deepspeed:
        return "deepspeed";
    case SoftwareFeature::Fsdp:
        return "fsdp";
    case SoftwareFeature::TritonKernels:
        return "triton-kernels";
    case SoftwareFeature::Colossalai:
        return "colossalai";
    }
    return "?";
}

const std::vector<SoftwareFeature>& allSoftwareFeatures() {
    static const std::vector<SoftwareFeature> all{SoftwareFeature::BitsandbytesQuantization,
                                                  SoftwareFeature::BitsandbytesOptimizers,
                                                  SoftwareFeature::FlashAttention2,
                                                  SoftwareFeature::Deepspeed,
                                                  SoftwareFeature::Fsdp,
                                                  SoftwareFeature::TritonKernels,
                                                  SoftwareFeature::Colossalai};
    return all;
}

NodeFabric nodeFabricOf(const GpuSpec& gpu) {
    const std::string& link = gpu.link.kind;
    if ((link == "nvlink4" || link == "nvlink5") && gpu.formFactor == "SXM" && gpu.gpusPerNode > 2) {
        return NodeFabric::NvLinkSharp;
    }
    if (link.rfind("nvlink", 0) == 0) {
        return gpu.formFactor == "PCIe" ? NodeFabric::NvLinkBridge : NodeFabric::NvLink;
    }
    if (link == "infinity-fabric") {
        return NodeFabric::NvLink; // RCCL, NCCL's port, over the OAM mesh
    }
    if (link == "pcie" || link == "none") {
        return NodeFabric::Pcie;
    }
    return gpu.vendor == "NVIDIA" || gpu.vendor == "AMD" ? NodeFabric::Unknown : NodeFabric::NotNccl;
}

void placeOnCard(Scenario& s, const GpuSpec& gpu) {
    s.fabric = nodeFabricOf(gpu);
    s.gpusPerNode = std::max(1, gpu.gpusPerNode);
    s.cardMemoryBytes = gpu.usableBytes();
}

const GpuSpec* Catalog::findGpu(std::string_view id) const {
    auto it = std::find_if(gpus.begin(), gpus.end(), [&](const GpuSpec& g) { return g.id == id; });
    return it == gpus.end() ? nullptr : &*it;
}

const ModelEntry* Catalog::findModel(std::string_view id) const {
    auto it = std::find_if(models.begin(), models.end(), [&](const ModelEntry& m) { return m.id == id; });
    return it == models.end() ? nullptr : &*it;
}

namespace {

bool validId(const std::string& id) {
    return !id.empty() && id.size() <= 80 && std::all_of(id.begin(), id.end(), [](unsigned char ch) {
        return std::islower(ch) || std::isdigit(ch) || ch == '-' || ch == '.' || ch == '_';
    });
}

Result<std::vector<std::string>> readSources(const ObjectReader& r) {
    if (!r.has("sources")) {
        return fail(ErrorCode::MissingField,
                    QT_TRANSLATE_NOOP("gpusizer", "required field 'sources' is missing (cite every spec)"),
                    r.field("sources"));
    }
    const json& v = r.raw()["sources"];
    if (!v.is_array() || v.empty()) {
        return fail(ErrorCode::WrongType,
                    QT_TRANSLATE_NOOP("gpusizer", "'sources' must be a non-empty array of strings"),
                    r.field("sources"));
    }
    std::vector<std::string> out;
    for (const auto& item : v) {
        if (!item.is_string() || item.get<std::string>().empty()) {
            return fail(ErrorCode::WrongType, QT_TRANSLATE_NOOP("gpusizer", "'sources' must hold non-empty strings"),
                        r.field("sources"));
        }
        out.push_back(item.get<std::string>());
    }
    return out;
}

Result<void> rejectUnknownKeys(const ObjectReader& r, std::initializer_list<const char*> known) {
    for (const auto& item : r.raw().items()) {
        const std::string& key = item.key(); // not a structured binding: clang 14 cannot capture one in a lambda
        if (std::none_of(known.begin(), known.end(), [&](const char* k) { return key == k; })) {
            return fail(ErrorCode::UnknownValue, words(QT_TRANSLATE_NOOP("gpusizer", "unknown field '%1'"), key),
                        r.where() + ": " + key);
        }
    }
    return {};
}

/// "billing": {"per": "second" | "minute" | "hour", "minimum_minutes": N (default one unit)}.
Result<Billing> readBilling(const ObjectReader& price) {
    GPUSIZER_ASSIGN(auto b, price.object("billing"));
    GPUSIZER_CHECK(rejectUnknownKeys(b, {"per", "minimum_minutes"}));
    GPUSIZER_ASSIGN(std::string per, b.string("per"));
    Billing billing;
    if (per == "second") {
        billing.unitSeconds = 1;
    } else if (per == "minute") {
        billing.unitSeconds = 60;
    } else if (per == "hour") {
        billing.unitSeconds = 3600;
    } else {
        return fail(ErrorCode::UnknownValue,
                    words(QT_TRANSLATE_NOOP("gpusizer", "'%1' is not one of: second, minute, hour"), per),
                    b.field("per"));
    }
    GPUSIZER_ASSIGN(auto minimum, b.optionalNumber("minimum_minutes", 0, 7 * 24 * 60));
    billing.minimumSeconds = minimum ? *minimum * 60.0 : billing.unitSeconds;
    return billing;
}

/// "software": {"stack": "ROCm", "lacks": {"<feature>": "why, with its source", ...}}.
Result<void> readSoftware(const ObjectReader& r, GpuSpec& g) {
    GPUSIZER_ASSIGN(auto sw, r.object("software"));
    GPUSIZER_CHECK(rejectUnknownKeys(sw, {"stack", "lacks"}));
    GPUSIZER_ASSIGN(g.softwareStack, sw.string("stack"));
    if (!sw.has("lacks")) {
        return {};
    }
    const json& lacks = sw.raw()["lacks"];
    if (!lacks.is_object()) {
        return fail(ErrorCode::WrongType, QT_TRANSLATE_NOOP("gpusizer", "'lacks' must be an object of feature: reason"),
                    sw.field("lacks"));
    }
    for (const auto& item : lacks.items()) {
        const std::string& key = item.key();
        const auto& all = allSoftwareFeatures();
        const auto f = std::find_if(all.begin(), all.end(), [&](SoftwareFeature x) { return key == toString(x); });
        if (f == all.end()) {
            return fail(ErrorCode::UnknownValue, words(QT_TRANSLATE_NOOP("gpusizer", "unknown feature '%1'"), key),
                        sw.field("lacks") + "." + key);
        }
        if (!item.value().is_string() || item.value().get<std::string>().empty()) {
            return fail(ErrorCode::WrongType,
                        QT_TRANSLATE_NOOP("gpusizer", "each feature needs its reason and source as text"),
                        sw.field("lacks") + "." + key);
        }
        g.lacks.push_back({*f, item.value().get<std::string>()});
    }
    return {};
}

/// "training_throughput": {"mfu": 0.38, "stack": "...", "citation": "short name", "source": "..."}.
Result<TrainingThroughput> readThroughput(const ObjectReader& r) {
    GPUSIZER_ASSIGN(auto t, r.object("training_throughput"));
    GPUSIZER_CHECK(rejectUnknownKeys(t, {"mfu", "stack", "citation", "source"}));
    TrainingThroughput out;
    GPUSIZER_ASSIGN(out.mfu, t.number("mfu", 0.01, 1.0));
    GPUSIZER_ASSIGN(out.stack, t.string("stack"));
    GPUSIZER_ASSIGN(out.citation, t.string("citation"));
    GPUSIZER_ASSIGN(out.source, t.string("source"));
    return out;
}

/// A price: per GPU-hour on demand and spot, its date, where it is listed, and a note (a GPU's "price" object and a
/// price file's entry alike).
Result<PriceOverride> readPriceFields(const ObjectReader& price) {
    PriceOverride p;
    GPUSIZER_ASSIGN(p.onDemandUsdHour, price.number("on_demand_usd_hour", 0, 1000));
    GPUSIZER_ASSIGN(p.spotUsdHour, price.number("spot_usd_hour", 0, 1000));
    GPUSIZER_ASSIGN(p.asOf, price.string("as_of"));
    GPUSIZER_ASSIGN(auto note, price.optionalString("note"));
    p.note = note.value_or("");
    GPUSIZER_ASSIGN(auto kind, price.optionalString("kind"));
    if (kind) {
        if (*kind != "marketplace" && *kind != "neocloud" && *kind != "hyperscaler") {
            return fail(
                ErrorCode::UnknownValue,
                words(QT_TRANSLATE_NOOP("gpusizer", "'%1' is not one of: marketplace, neocloud, hyperscaler"), *kind),
                price.field("kind"));
        }
        p.kind = *kind;
    }
    p.billing = defaultBilling(p.kind);
    if (price.has("billing")) {
        GPUSIZER_ASSIGN(p.billing, readBilling(price));
    }
    return p;
}

Result<PriceOverride> readPrice(const ObjectReader& r) {
    GPUSIZER_ASSIGN(std::string id, r.string("id"));
    GPUSIZER_ASSIGN(PriceOverride p, readPriceFields(r));
    p.id = id;
    return p;
}

/// The card's links: its PCIe slot and its GPU-to-GPU link.
Result<void> readInterconnect(const ObjectReader& r, GpuSpec& g) {
    GPUSIZER_ASSIGN(auto ic, r.object("interconnect"));
    GPUSIZER_ASSIGN(auto pcieGen, ic.integer("pcie_gen", 3, 7));
    GPUSIZER_ASSIGN(auto lanes, ic.integer("pcie_lanes", 1, 32));
    g.pcieGen = static_cast<int>(pcieGen);
    g.pcieLanes = static_cast<int>(lanes);
    GPUSIZER_ASSIGN(g.link.kind, ic.string("link"));
    static const std::set<std::string> kLinks{"none",    "pcie",    "nvlink2",         "nvlink3",
                                              "nvlink4", "nvlink5", "infinity-fabric", "gaudi-roce"};
    if (!kLinks.count(g.link.kind)) {
        return fail(
            ErrorCode::UnknownValue,
            QT_TRANSLATE_NOOP("gpusizer", "'link' must be one of none, pcie, nvlink2-5, infinity-fabric, gaudi-roce"),
            ic.field("link"));
    }
    GPUSIZER_ASSIGN(g.link.bandwidthGBs, ic.number("link_gbs", 0, 100000));
    return {};
}

/// The card's hourly prices and where they come from.
Result<void> readGpuPrice(const ObjectReader& r, GpuSpec& g) {
    GPUSIZER_ASSIGN(auto price, r.object("price"));
    GPUSIZER_ASSIGN(PriceOverride p, readPriceFields(price));
    g.priceOnDemandUsdHour = p.onDemandUsdHour;
    g.priceSpotUsdHour = p.spotUsdHour;
    g.priceDate = p.asOf;
    g.priceKind = p.kind;
    g.priceNote = p.note;
    g.billing = p.billing;
    return {};
}

/// The CUDA compute capability and SM count, where the entry states them.
Result<void> readCudaArchitecture(const ObjectReader& r, GpuSpec& g) {
    GPUSIZER_ASSIGN(auto capability, r.optionalNumber("compute_capability", 1, 99));
    if (capability && g.vendor != "NVIDIA") {
        return fail(ErrorCode::Inconsistent,
                    QT_TRANSLATE_NOOP("gpusizer", "'compute_capability' is NVIDIA's CUDA version of a card: leave it "
                                                  "out for other vendors"),
                    r.field("compute_capability"));
    }
    g.computeCapability = capability.value_or(0.0);
    GPUSIZER_ASSIGN(auto sms, r.optionalInteger("sms", 1, 4096));
    g.smCount = static_cast<int>(sms.value_or(0));
    return {};
}

Result<GpuSpec> readGpu(const ObjectReader& r) {
    GpuSpec g;
    auto unknown = rejectUnknownKeys(r, {"id",
                                         "vendor",
                                         "name",
                                         "memory_gib",
                                         "usable_gib",
                                         "bandwidth_tbs",
                                         "bf16_tflops",
                                         "fp8_tflops",
                                         "fp32_tflops",
                                         "interconnect",
                                         "gpus_per_node",
                                         "ecc",
                                         "form_factor",
                                         "tdp_w",
                                         "price",
                                         "sources",
                                         "notes",
                                         "bf16",
                                         "host_ram_gib_per_gpu",
                                         "software",
                                         "training_throughput",
                                         "multi_node",
                                         "compute_capability",
                                         "sms"});
    if (!unknown) {
        return tl::unexpected(unknown.error());
    }
    GPUSIZER_ASSIGN(g.id, r.string("id"));
    GPUSIZER_ASSIGN(g.vendor, r.string("vendor"));
    GPUSIZER_ASSIGN(g.name, r.string("name"));
    GPUSIZER_ASSIGN(g.memoryGiBStated, r.number("memory_gib", 1, 4096));
    GPUSIZER_ASSIGN(g.memoryGiBUsable, r.number("usable_gib", 0.5, 4096));
    if (g.memoryGiBUsable > g.memoryGiBStated) {
        return fail(ErrorCode::Inconsistent, QT_TRANSLATE_NOOP("gpusizer", "'usable_gib' cannot exceed 'memory_gib'"),
                    r.field("usable_gib"));
    }
    GPUSIZER_ASSIGN(g.bandwidthTBs, r.number("bandwidth_tbs", 0.01, 100));
    GPUSIZER_ASSIGN(g.bf16Tflops, r.number("bf16_tflops", 0.1, 100000));
    GPUSIZER_ASSIGN(auto fp8, r.optionalNumber("fp8_tflops", 0, 100000));
    g.fp8Tflops = fp8.value_or(0.0);
    GPUSIZER_ASSIGN(g.fp32Tflops, r.number("fp32_tflops", 0.1, 100000));
    GPUSIZER_CHECK(readInterconnect(r, g));
    GPUSIZER_ASSIGN(auto perNode, r.integer("gpus_per_node", 1, 72));
    g.gpusPerNode = static_cast<int>(perNode);
    GPUSIZER_ASSIGN(g.ecc, r.boolean("ecc"));
    GPUSIZER_ASSIGN(g.formFactor, r.string("form_factor"));
    GPUSIZER_ASSIGN(auto tdp, r.integer("tdp_w", 1, 5000));
    g.tdpWatts = static_cast<int>(tdp);
    GPUSIZER_CHECK(readGpuPrice(r, g));
    if (r.has("software")) {
        GPUSIZER_CHECK(readSoftware(r, g));
    }
    if (r.has("training_throughput")) {
        GPUSIZER_ASSIGN(g.throughput, readThroughput(r));
    }
    GPUSIZER_ASSIGN(auto multiNode, r.optionalBool("multi_node"));
    g.multiNode = multiNode.value_or(true);
    GPUSIZER_ASSIGN(auto notes, r.optionalString("notes"));
    g.notes = notes.value_or("");
    GPUSIZER_ASSIGN(auto bf16, r.optionalBool("bf16"));
    g.bf16 = bf16.value_or(true);
    GPUSIZER_ASSIGN(auto hostRam, r.optionalNumber("host_ram_gib_per_gpu", 1, 65536));
    g.hostRamGiBPerGpu = hostRam.value_or(0.0);
    GPUSIZER_CHECK(readCudaArchitecture(r, g));
    GPUSIZER_ASSIGN(g.sources, readSources(r));
    return g;
}

Result<ModelEntry> readModel(const ObjectReader& r) {
    ModelEntry m;
    auto unknown =
        rejectUnknownKeys(r, {"id", "name", "family", "config", "published_params_billion", "sources", "notes"});
    if (!unknown) {
        return tl::unexpected(unknown.error());
    }
    GPUSIZER_ASSIGN(m.id, r.string("id"));
    GPUSIZER_ASSIGN(m.name, r.string("name"));
    GPUSIZER_ASSIGN(m.family, r.string("family"));
    GPUSIZER_ASSIGN(m.publishedParamsBillion, r.number("published_params_billion", 0.001, 100000));
    if (!r.has("config") || !r.raw()["config"].is_object()) {
        return fail(ErrorCode::MissingField,
                    QT_TRANSLATE_NOOP("gpusizer", "'config' must be an object of config.json keys"), r.field("config"));
    }
    GPUSIZER_ASSIGN(auto imported, archFromHfConfig(r.raw()["config"], r.field("config")));
    m.arch = imported.arch;
    m.arch.name = m.name;
    Scenario probe;
    probe.model = m.arch;
    if (auto ok = validate(probe); !ok) {
        return fail(ok.error().code, ok.error().words, r.field("config"));
    }
    GPUSIZER_ASSIGN(m.sources, readSources(r));
    return m;
}

template <class T, class ReadFn>
Result<CatalogLoad<T>> loadCatalog(std::string_view bytes, std::string_view fileName, const char* listKey,
                                   ReadFn readEntry) {
    GPUSIZER_ASSIGN(json doc, detail::parseDocument(bytes, fileName));
    if (!doc.is_object()) {
        return fail(ErrorCode::WrongFormat, QT_TRANSLATE_NOOP("gpusizer", "a catalog must be a JSON object"),
                    std::string(fileName));
    }
    ObjectReader top(doc, std::string(fileName));
    GPUSIZER_ASSIGN(auto schema, top.integer("schemaVersion", 1, 1'000'000));
    if (schema > kCatalogSchemaVersion) {
        return fail(ErrorCode::WrongFormat,
                    words(QT_TRANSLATE_NOOP("gpusizer", "schemaVersion %1 is newer than this GPU Sizer reads (%2)"),
                          std::to_string(schema), std::to_string(kCatalogSchemaVersion)),
                    top.field("schemaVersion"));
    }
    if (!doc.contains(listKey) || !doc[listKey].is_array()) {
        return fail(ErrorCode::MissingField, words(QT_TRANSLATE_NOOP("gpusizer", "'%1' must be an array"), listKey),
                    top.field(listKey));
    }
    CatalogLoad<T> out;
    std::set<std::string> ids;
    const json& list = doc[listKey];
    for (std::size_t i = 0; i < list.size(); ++i) {
        const json& item = list[i];
        std::string label = "#" + std::to_string(i);
        if (item.is_object() && item.contains("id") && item["id"].is_string()) {
            label = item["id"].get<std::string>();
        }
        const std::string where = std::string(fileName) + ": " + listKey + "[" + label + "]";
        if (!item.is_object()) {
            out.rejected.push_back({label, Error{ErrorCode::WrongType,
                                                 QT_TRANSLATE_NOOP("gpusizer", "an entry must be an object"), where}});
            continue;
        }
        auto entry = readEntry(ObjectReader(item, where));
        if (!entry) {
            out.rejected.push_back({label, entry.error()});
            continue;
        }
        if (!validId(entry->id)) {
            out.rejected.push_back(
                {label, Error{ErrorCode::OutOfRange,
                              QT_TRANSLATE_NOOP("gpusizer",
                                                "'id' must be lower-case letters, digits, '-', '.', '_' (1-80 chars)"),
                              where + ": id"}});
            continue;
        }
        if (!ids.insert(entry->id).second) {
            out.rejected.push_back(
                {label, Error{ErrorCode::DuplicateId,
                              words(QT_TRANSLATE_NOOP("gpusizer", "id '%1' appears more than once"), entry->id),
                              where + ": id"}});
            continue;
        }
        out.entries.push_back(std::move(*entry));
    }
    return out;
}

} // namespace

Result<CatalogLoad<GpuSpec>> loadGpuCatalog(std::string_view bytes, std::string_view fileName) {
    return loadCatalog<GpuSpec>(bytes, fileName, "gpus", readGpu);
}

Result<CatalogLoad<PriceOverride>> loadPriceFile(std::string_view bytes, std::string_view fileName) {
    return loadCatalog<PriceOverride>(bytes, fileName, "prices", readPrice);
}

Result<CatalogLoad<ModelEntry>> loadModelCatalog(std::string_view bytes, std::string_view fileName) {
    return loadCatalog<ModelEntry>(bytes, fileName, "models", readModel);
}

} // namespace gpusizer::core
