#include "gpusizer/scenario/ScenarioJson.h"

#include "gpusizer/scenario/FrameworkProfile.h"
#include "gpusizer/scenario/HfConfig.h"
#include "gpusizer/scenario/JsonRead.h"
#include "gpusizer/scenario/ScenarioFields.h"
#include "gpusizer/scenario/Units.h"
#include "gpusizer/scenario/Validate.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gpusizer::core {

using detail::ObjectReader;
using nlohmann::json;

namespace {

template <class E>
Result<void> readEnum(const ObjectReader& r, const char* key, E& target) {
    GPUSIZER_ASSIGN(auto text, r.optionalString(key));
    if (!text) {
        return {};
    }
    auto value = parseEnum<E>(*text);
    if (!value) {
        std::string allowed;
        for (E v : allValues<E>()) {
            allowed += (allowed.empty() ? "" : ", ") + std::string(toString(v));
        }
        return fail(ErrorCode::UnknownValue,
                    words(QT_TRANSLATE_NOOP("gpusizer", "'%1' is not one of: %2"), *text, allowed), r.field(key));
    }
    target = *value;
    return {};
}

Result<void> readModel(const json& doc, const std::string& where, const Catalog& catalog, Scenario& s,
                       std::vector<Warning>& warnings) {
    if (!doc.contains("model") || doc["model"].is_null()) {
        return fail(
            ErrorCode::MissingField,
            QT_TRANSLATE_NOOP(
                "gpusizer",
                "required field 'model' is missing (a catalog id, a config.json object or {\"params_billion\": N})"),
            where + ": model");
    }
    const json& model = doc["model"];
    if (model.is_string()) {
        const ModelEntry* entry = catalog.findModel(model.get<std::string>());
        if (entry == nullptr) {
            return fail(ErrorCode::UnknownId,
                        words(QT_TRANSLATE_NOOP("gpusizer", "model '%1' is not in the model catalog"),
                              model.get<std::string>()),
                        where + ": model");
        }
        s.modelId = entry->id;
        s.model = entry->arch;
        return {};
    }
    if (!model.is_object()) {
        return fail(ErrorCode::WrongType,
                    QT_TRANSLATE_NOOP("gpusizer",
                                      "'model' must be a catalog id, a config.json object or {\"params_billion\": N}"),
                    where + ": model");
    }
    if (model.contains("params_billion")) {
        ObjectReader r(model, where + ": model");
        // Up to 10 trillion: the widest rung of the size ladder then stays within the layer limit (10,000).
        GPUSIZER_ASSIGN(double billions, r.number("params_billion", 0.001, 10000));
        s.model = archFromParamCount(billions);
        return {};
    }
    GPUSIZER_ASSIGN(auto imported, archFromHfConfig(model, where + ": model"));
    s.model = imported.arch;
    for (auto& w : imported.warnings) {
        warnings.push_back(std::move(w));
    }
    return {};
}

Result<void> readLora(const ObjectReader& top, Scenario& s) {
    if (!top.has("lora")) {
        return {};
    }
    GPUSIZER_ASSIGN(auto r, top.object("lora"));
    if (r.has("targets")) {
        const json& t = r.raw()["targets"];
        std::vector<std::string> names;
        if (t.is_string()) {
            names.push_back(t.get<std::string>());
        } else if (t.is_array()) {
            for (const auto& item : t) {
                if (!item.is_string()) {
                    return fail(ErrorCode::WrongType, QT_TRANSLATE_NOOP("gpusizer", "'targets' must hold module names"),
                                r.field("targets"));
                }
                names.push_back(item.get<std::string>());
            }
        } else {
            return fail(ErrorCode::WrongType,
                        QT_TRANSLATE_NOOP("gpusizer", "'targets' must be \"all-linear\" or an array of module names"),
                        r.field("targets"));
        }
        s.lora.targets.clear();
        for (const auto& name : names) {
            if (name == "lm_head" || name == "output") {
                s.lora.lmHead = true;
                continue;
            }
            if (name == "embed_tokens" || name == "wte" || name == "tok_embeddings") {
                s.lora.embedding = true;
                continue;
            }
            auto roles = loraTargetsFromModuleName(name);
            if (roles.empty()) {
                return fail(
                    ErrorCode::UnknownValue,
                    words(QT_TRANSLATE_NOOP(
                              "gpusizer", "'%1' is not a known module (q_proj, k_proj, v_proj, o_proj, gate_proj, "
                                          "up_proj, down_proj, all-linear, or an alias such as query/value/c_attn/w1)"),
                          name),
                    r.field("targets"));
            }
            for (auto role : roles) {
                if (std::find(s.lora.targets.begin(), s.lora.targets.end(), role) == s.lora.targets.end()) {
                    s.lora.targets.push_back(role);
                }
            }
        }
        // An empty list is validate()'s to refuse: it knows the adapter kind (LayerNorm tuning has no targets).
    }
    if (r.has("modules_to_save")) {
        const json& list = r.raw()["modules_to_save"];
        if (!list.is_array()) {
            return fail(ErrorCode::WrongType,
                        QT_TRANSLATE_NOOP("gpusizer", "'modules_to_save' must be an array of module names"),
                        r.field("modules_to_save"));
        }
        for (const auto& item : list) {
            const std::string name = item.is_string() ? item.get<std::string>() : std::string();
            if (name == "lm_head") {
                s.lora.saveLmHead = true;
            } else if (name == "embed_tokens") {
                s.lora.saveEmbedding = true;
            } else {
                return fail(
                    ErrorCode::UnknownValue,
                    QT_TRANSLATE_NOOP("gpusizer", "modules_to_save entries must be \"lm_head\" or \"embed_tokens\""),
                    r.field("modules_to_save"));
            }
        }
    }
    return {};
}

Result<void> readOverrides(const ObjectReader& top, Scenario& s) {
    if (!top.has("framework_overrides")) {
        return {};
    }
    GPUSIZER_ASSIGN(auto r, top.object("framework_overrides"));
    for (const auto& b : boolBehaviours()) {
        GPUSIZER_ASSIGN(auto v, r.optionalBool(b.key));
        if (v) {
            s.overrides.*b.override = *v;
        }
    }
    GPUSIZER_ASSIGN(auto chunks, r.optionalInteger("loss_chunks", 1, 4096));
    if (chunks) {
        s.overrides.lossChunks = static_cast<int>(*chunks);
    }
    // DeepSpeed bucket sizes in elements, as its config names them (accelerate's generated config leaves them at
    // DeepSpeed's defaults; the transformers Trainer's templates set "auto"). 0 is the hidden-size rule: hidden² to
    // reduce, 0.9 x hidden² to prefetch (transformers' "auto", ArcticTraining's own default).
    GPUSIZER_ASSIGN(auto reduceBucket, r.optionalNumber("zero_reduce_bucket_elements", 0, 1e12));
    s.overrides.zeroReduceBucketElements = reduceBucket;
    GPUSIZER_ASSIGN(auto prefetchBucket, r.optionalNumber("zero_prefetch_bucket_elements", 0, 1e12));
    s.overrides.zeroPrefetchBucketElements = prefetchBucket;
    // ZeRO-3's gathered working set: stage3_max_reuse_distance and stage3_max_live_parameters (both 1e9 by default).
    GPUSIZER_ASSIGN(auto reuseDistance, r.optionalNumber("zero_max_reuse_distance", 0, 1e15));
    s.overrides.zeroMaxReuseDistance = reuseDistance;
    GPUSIZER_ASSIGN(auto maxLive, r.optionalNumber("zero_max_live_parameters", 0, 1e15));
    s.overrides.zeroMaxLiveParameters = maxLive;
    OptimizerStepKind step = OptimizerStepKind::Foreach;
    if (r.has("optimizer_step")) {
        GPUSIZER_CHECK(readEnum(r, "optimizer_step", step));
        s.overrides.optimizerStep = step;
    }
    SelectivePolicy policy = SelectivePolicy::AttentionCore;
    if (r.has("selective_policy")) {
        GPUSIZER_CHECK(readEnum(r, "selective_policy", policy));
        s.overrides.selectivePolicy = policy;
    }
    for (const auto& item : r.raw().items()) {
        const std::string& key = item.key(); // not a structured binding: clang 14 cannot capture one in a lambda
        const auto behaviours = boolBehaviours();
        const bool known =
            key == "loss_chunks" || key == "optimizer_step" || key == "selective_policy" ||
            key == "zero_reduce_bucket_elements" || key == "zero_prefetch_bucket_elements" ||
            key == "zero_max_reuse_distance" || key == "zero_max_live_parameters" ||
            std::any_of(behaviours.begin(), behaviours.end(), [&](const BoolBehaviour& b) { return key == b.key; });
        if (!known) {
            return fail(ErrorCode::UnknownValue,
                        words(QT_TRANSLATE_NOOP("gpusizer", "unknown framework override '%1'"), key),
                        r.field(key.c_str()));
        }
    }
    return {};
}

/// Top-level keys a scenario file may hold: the field table's (the first part of "lora.rank") and the header.
const std::set<std::string>& knownKeys() {
    static const std::set<std::string> keys = [] {
        std::set<std::string> k{"format", "version"};
        for (const auto& f : scenarioFields()) {
            const std::string key = f.key;
            k.insert(key.substr(0, key.find('.')));
        }
        return k;
    }();
    return keys;
}

/// A field of the table with its own type: read, range-checked and stored; absent keys keep the default.
Result<void> readField(const ScenarioField& f, const ObjectReader& top, Scenario& s) {
    std::optional<ObjectReader> lora;
    const ObjectReader* r = &top;
    if (f.inLora()) {
        if (!top.has("lora")) {
            return {};
        }
        GPUSIZER_ASSIGN(auto sub, top.object("lora"));
        lora.emplace(std::move(sub));
        r = &*lora;
    }
    const std::string leaf = f.leafKey();
    switch (f.type) {
    case FieldType::Integer: {
        GPUSIZER_ASSIGN(auto v, r->optionalInteger(leaf.c_str(), static_cast<std::int64_t>(f.min),
                                                   static_cast<std::int64_t>(f.max)));
        if (v) {
            f.set(s, static_cast<double>(*v));
        }
        return {};
    }
    case FieldType::Number: {
        GPUSIZER_ASSIGN(auto v, r->optionalNumber(leaf.c_str(), f.min, f.max));
        if (v) {
            if (auto problem = rangeProblem(f, *v)) {
                return fail(ErrorCode::OutOfRange, std::move(*problem),
                            r->field(leaf.c_str()) + " = " + json(*v).dump());
            }
            f.set(s, *v);
        }
        return {};
    }
    case FieldType::Flag: {
        GPUSIZER_ASSIGN(auto v, r->optionalBool(leaf.c_str()));
        if (v) {
            f.set(s, *v ? 1.0 : 0.0);
        }
        return {};
    }
    case FieldType::Choice: {
        GPUSIZER_ASSIGN(auto text, r->optionalString(leaf.c_str()));
        if (!text) {
            return {};
        }
        std::string allowed;
        for (const auto& c : f.choices) {
            if (c.code == *text) {
                f.set(s, c.value);
                return {};
            }
            allowed += (allowed.empty() ? "" : ", ") + c.code;
        }
        return fail(ErrorCode::UnknownValue,
                    words(QT_TRANSLATE_NOOP("gpusizer", "'%1' is not one of: %2"), *text, allowed),
                    r->field(leaf.c_str()));
    }
    case FieldType::Special:
        break;
    }
    return {};
}

/// Writes the table's fields (specials excepted) into the document; "lora.*" into its "lora" object.
void writeFields(const Scenario& s, json& doc) {
    for (const auto& f : scenarioFields()) {
        if (f.type == FieldType::Special || (f.writtenWhen && !f.writtenWhen(s))) {
            continue;
        }
        json& target = f.inLora() ? doc["lora"] : doc;
        const std::string leaf = f.leafKey();
        const double v = f.get(s);
        switch (f.type) {
        case FieldType::Integer:
            target[leaf] = static_cast<std::int64_t>(std::llround(v));
            break;
        case FieldType::Number:
            target[leaf] = v;
            break;
        case FieldType::Flag:
            target[leaf] = v != 0.0;
            break;
        case FieldType::Choice:
            target[leaf] = f.codeOf(static_cast<int>(v));
            break;
        case FieldType::Special:
            break;
        }
    }
}

/// Only this program's scenario documents, and no version newer than it reads.
Result<void> checkFormatAndVersion(const ObjectReader& r) {
    GPUSIZER_ASSIGN(auto format, r.optionalString("format"));
    if (format && *format != "gpusizer-scenario") {
        return fail(ErrorCode::WrongFormat,
                    words(QT_TRANSLATE_NOOP("gpusizer", "'format' is '%1', expected 'gpusizer-scenario'"), *format),
                    r.field("format"));
    }
    GPUSIZER_ASSIGN(auto version, r.optionalInteger("version", 1, 1000));
    if (version && *version > 1) {
        return fail(ErrorCode::WrongFormat,
                    words(QT_TRANSLATE_NOOP("gpusizer", "version %1 is newer than this GPU Sizer reads (1)"),
                          std::to_string(*version)),
                    r.field("version"));
    }
    return {};
}

/// Unknown keys are ignored, not refused, so a file from a newer build still opens; the warning says what was lost.
void warnUnknownKeys(const json& doc, const std::string& where, std::vector<Warning>& warnings) {
    for (const auto& [key, value] : doc.items()) {
        (void)value;
        if (!knownKeys().count(key)) {
            warnings.push_back(
                {"unknown_key", words(QT_TRANSLATE_NOOP("gpusizer", "ignored unknown field '%1' in %2"), key, where)});
        }
    }
}

Result<void> readGpu(const ObjectReader& r, const Catalog& catalog, Scenario& s) {
    GPUSIZER_ASSIGN(auto gpu, r.optionalString("gpu"));
    if (gpu) {
        if (catalog.findGpu(*gpu) == nullptr) {
            return fail(ErrorCode::UnknownId,
                        words(QT_TRANSLATE_NOOP("gpusizer", "GPU '%1' is not in the GPU catalog"), *gpu),
                        r.field("gpu"));
        }
        s.gpuId = *gpu;
        placeOnCard(s, *catalog.findGpu(*gpu));
    }
    return {};
}

/// Measurement documents are kept whole (as text); only their format is checked here.
Result<void> readMeasurements(const json& doc, const ObjectReader& r, Scenario& s) {
    const json& list = doc["measurements"];
    if (!list.is_array()) {
        return fail(ErrorCode::WrongType,
                    QT_TRANSLATE_NOOP("gpusizer", "'measurements' must be an array of measurement results"),
                    r.field("measurements"));
    }
    for (const json& item : list) {
        if (!item.is_object() || !item.contains("format") || item["format"] != "gpusizer-measurement") {
            return fail(ErrorCode::WrongFormat,
                        QT_TRANSLATE_NOOP("gpusizer", "every item of 'measurements' must be a gpusizer-measurement"),
                        r.field("measurements"));
        }
        s.measurements.push_back(item.dump());
    }
    return {};
}

/// A special field of the table: one whose value is more than a number, flag or choice.
Result<void> readSpecialField(std::string_view key, const json& doc, const ObjectReader& r, const std::string& where,
                              const Catalog& catalog, ParsedScenario& out) {
    Scenario& s = out.scenario;
    if (key == "name") {
        GPUSIZER_ASSIGN(auto name, r.optionalString("name"));
        s.name = name.value_or("");
    } else if (key == "notes") {
        GPUSIZER_ASSIGN(auto notes, r.optionalString("notes"));
        s.notes = notes.value_or("");
    } else if (key == "model") {
        GPUSIZER_CHECK(readModel(doc, where, catalog, s, out.warnings));
    } else if (key == "lora.targets") {
        GPUSIZER_CHECK(readLora(r, s)); // the targets and modules_to_save
    } else if (key == "framework_overrides") {
        GPUSIZER_CHECK(readOverrides(r, s));
    } else if (key == "gpu") {
        GPUSIZER_CHECK(readGpu(r, catalog, s));
    } else if (key == "cuda_context_gib") {
        GPUSIZER_ASSIGN(auto context, r.optionalNumber("cuda_context_gib", 0, 64));
        if (context) {
            s.cudaContextBytes = gibToBytes(*context);
        }
    } else if (key == "overhead_correction_gib") {
        GPUSIZER_ASSIGN(auto correction, r.optionalNumber("overhead_correction_gib", -64, 64));
        if (correction) {
            s.overheadCorrectionBytes = static_cast<std::int64_t>(std::llround(*correction * kGiB));
        }
    } else if (key == "measurements" && r.has("measurements")) {
        GPUSIZER_CHECK(readMeasurements(doc, r, s));
    } else if (key == "dataset" && r.has("dataset")) {
        GPUSIZER_ASSIGN(s.dataset, parseDatasetLengths(doc["dataset"].dump(), r.field("dataset")));
    }
    return {};
}

} // namespace

Result<ParsedScenario> parseScenario(std::string_view bytes, std::string_view whereView, const Catalog& catalog) {
    const std::string where(whereView);
    GPUSIZER_ASSIGN(json doc, detail::parseDocument(bytes, where));
    if (!doc.is_object()) {
        return fail(ErrorCode::WrongFormat, QT_TRANSLATE_NOOP("gpusizer", "a scenario must be a JSON object"), where);
    }
    ObjectReader r(doc, where);
    GPUSIZER_CHECK(checkFormatAndVersion(r));
    ParsedScenario out;
    Scenario& s = out.scenario;
    warnUnknownKeys(doc, where, out.warnings);
    // Every field in the table's order; the specials have their own readers.
    for (const ScenarioField& f : scenarioFields()) {
        if (f.type != FieldType::Special) {
            GPUSIZER_CHECK(readField(f, r, s));
            continue;
        }
        GPUSIZER_CHECK(readSpecialField(f.key, doc, r, where, catalog, out));
    }
    if (auto ok = validate(s); !ok) {
        auto error = ok.error();
        error.where = where + ": " + error.where;
        return tl::unexpected(error);
    }
    return out;
}

namespace {

/// The adapter's targets and modules_to_save, as PEFT names them.
void writeLoraModules(const Scenario& s, json& lora) {
    json targets = json::array();
    for (auto role : s.lora.targets) {
        targets.push_back(linearRoleName(role));
    }
    if (s.lora.lmHead) {
        targets.push_back("lm_head");
    }
    if (s.lora.embedding) {
        targets.push_back("embed_tokens");
    }
    lora["targets"] = targets;
    if (s.lora.saveLmHead || s.lora.saveEmbedding) {
        json save = json::array();
        if (s.lora.saveLmHead) {
            save.push_back("lm_head");
        }
        if (s.lora.saveEmbedding) {
            save.push_back("embed_tokens");
        }
        lora["modules_to_save"] = save;
    }
}

/// The framework behaviours the scenario sets against its framework's profile.
json overridesJson(const Scenario& s) {
    json overrides = json::object();
    for (const auto& b : boolBehaviours()) {
        if (const auto& value = s.overrides.*b.override) {
            overrides[b.key] = *value;
        }
    }
    if (s.overrides.lossChunks) {
        overrides["loss_chunks"] = *s.overrides.lossChunks;
    }
    if (s.overrides.optimizerStep) {
        overrides["optimizer_step"] = toString(*s.overrides.optimizerStep);
    }
    if (s.overrides.selectivePolicy) {
        overrides["selective_policy"] = toString(*s.overrides.selectivePolicy);
    }
    if (s.overrides.zeroReduceBucketElements) {
        overrides["zero_reduce_bucket_elements"] = *s.overrides.zeroReduceBucketElements;
    }
    if (s.overrides.zeroPrefetchBucketElements) {
        overrides["zero_prefetch_bucket_elements"] = *s.overrides.zeroPrefetchBucketElements;
    }
    if (s.overrides.zeroMaxReuseDistance) {
        overrides["zero_max_reuse_distance"] = *s.overrides.zeroMaxReuseDistance;
    }
    if (s.overrides.zeroMaxLiveParameters) {
        overrides["zero_max_live_parameters"] = *s.overrides.zeroMaxLiveParameters;
    }
    return overrides;
}

} // namespace

std::string scenarioToJson(const Scenario& s) {
    json doc{{"format", "gpusizer-scenario"}, {"version", 1}};
    if (!s.name.empty()) {
        doc["name"] = s.name;
    }
    if (!s.notes.empty()) {
        doc["notes"] = s.notes;
    }
    if (!s.modelId.empty()) {
        doc["model"] = s.modelId;
    } else if (s.model.sizeDerived) {
        // The count the shape was made from, not the shape's own (rounded to whole layers, 22 B is 21.96 B, which can
        // pick another depth when read back): the scenario reopens as the same shape.
        const double billions = s.model.sizeDerivedFromBillions > 0
                                    ? s.model.sizeDerivedFromBillions
                                    : static_cast<double>(countParams(s.model).total) / 1e9;
        doc["model"] = {{"params_billion", std::clamp(billions, 0.001, 10000.0)}};
    } else {
        doc["model"] = archToHfConfig(s.model);
    }
    writeFields(s, doc);
    writeLoraModules(s, doc["lora"]);
    if (!s.gpuId.empty()) {
        doc["gpu"] = s.gpuId;
    }
    if (s.cudaContextBytes) {
        doc["cuda_context_gib"] = toGiB(static_cast<double>(*s.cudaContextBytes));
    }
    if (s.overheadCorrectionBytes != 0) {
        doc["overhead_correction_gib"] = static_cast<double>(s.overheadCorrectionBytes) / kGiB;
    }
    if (!s.measurements.empty()) {
        json list = json::array();
        for (const auto& m : s.measurements) {
            // Kept as the dump of a document already parsed; the no-throw parse keeps the writer exception-free.
            if (json one = json::parse(m, nullptr, false); !one.is_discarded()) {
                list.push_back(std::move(one));
            }
        }
        doc["measurements"] = list;
    }
    if (s.dataset) {
        doc["dataset"] = json::parse(datasetLengthsToJson(*s.dataset), nullptr, false); // our own dump: valid
    }
    if (s.overrides.any()) {
        doc["framework_overrides"] = overridesJson(s);
    }
    return doc.dump(2) + "\n";
}

std::string automaticName(const Scenario& s) {
    std::string model = s.model.name;
    if (s.model.sizeDerived || model.empty()) {
        char size[32];
        std::snprintf(size, sizeof size, "%.1fB model", static_cast<double>(countParams(s.model).total) / 1e9);
        model = size;
    }
    const char* method = s.method == Method::Full ? "Full" : s.method == Method::Lora ? "LoRA" : "QLoRA";
    return model + " " + method;
}

Scenario defaultScenario(const Catalog& catalog) {
    Scenario s;
    if (const ModelEntry* m = catalog.findModel("llama-3.1-8b")) {
        s.modelId = m->id;
        s.model = m->arch;
    } else {
        s.model = archFromParamCount(8.0);
    }
    s.method = Method::Lora;
    s.microBatch = 4;
    s.seqLen = 2048;
    s.name = automaticName(s); // "Llama-3.1-8B LoRA"
    return s;
}

} // namespace gpusizer::core
