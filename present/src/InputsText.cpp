#include "gpusizer/present/InputsText.h"

#include "gpusizer/memory/Estimate.h"
#include "gpusizer/present/Format.h"
#include "gpusizer/present/Names.h"
#include "gpusizer/scenario/ScenarioFields.h"
#include "gpusizer/scenario/Vision.h"

namespace gpusizer::present {

namespace {

std::string targetList(const core::Scenario& s) {
    std::string out;
    for (auto role : s.lora.targets) {
        out += (out.empty() ? "" : ", ") + std::string(core::linearRoleName(role));
    }
    if (s.lora.lmHead) {
        out += (out.empty() ? "" : ", ") + std::string("lm_head");
    }
    if (s.lora.embedding) {
        out += (out.empty() ? "" : ", ") + std::string("embed_tokens");
    }
    return out;
}

Message typeName(core::FieldType t) {
    switch (t) {
    case core::FieldType::Integer:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "integer"));
    case core::FieldType::Number:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "number"));
    case core::FieldType::Flag:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "true / false"));
    case core::FieldType::Choice:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "choice"));
    case core::FieldType::Special:
        break;
    }
    return msg(QT_TRANSLATE_NOOP("gpusizer", "see docs"));
}

} // namespace

Message modelDescription(const core::Scenario& s) {
    if (s.model.sizeDerived) {
        return msg(QT_TRANSLATE_NOOP("gpusizer", "Llama-style model of %1 (derived from the size)"),
                   params(core::countParams(s.model).total));
    }
    if (s.modelId.empty()) {
        return msg(QT_TRANSLATE_NOOP("gpusizer", "Imported: %1"), s.model.name);
    }
    return msg(QT_TRANSLATE_NOOP("gpusizer", "%1 (catalog id %2)"), s.model.name, s.modelId);
}

/// An adapter kind other than LoRA, with what it is applied to.
Message otherAdapterDescription(const core::Scenario& s) {
    switch (s.lora.kind) {
    case core::AdapterKind::Ia3:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "%1 scaling vectors on %2"), label(s.lora.kind), targetList(s));
    case core::AdapterKind::LnTuning:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "LayerNorm tuning of every norm"));
    default:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "%1 r%2 on %3"), label(s.lora.kind), count(s.lora.rank),
                   targetList(s));
    }
}

Message methodDescription(const core::Scenario& s) {
    if (core::otherAdapter(s)) {
        return s.method == core::Method::Qlora ? msg(QT_TRANSLATE_NOOP("gpusizer", "QLoRA (%1): %2"),
                                                     label(s.quantization), otherAdapterDescription(s))
                                               : otherAdapterDescription(s);
    }
    switch (s.method) {
    case core::Method::Full:
        if (core::freezesLayers(s)) {
            return msg(QT_TRANSLATE_NOOP("gpusizer", "full fine-tuning of the last %1 of %2 layers"),
                       count(s.trainableLayers), count(s.model.numLayers));
        }
        return msg(QT_TRANSLATE_NOOP("gpusizer", "full fine-tuning"));
    case core::Method::Lora:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "LoRA r%1 on %2"), count(s.lora.rank), targetList(s));
    case core::Method::Qlora:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "QLoRA (%1) r%2 on %3"), label(s.quantization), count(s.lora.rank),
                   targetList(s));
    }
    return {};
}

Table inputsTable(const core::Scenario& s, const core::Catalog& catalog) {
    Table t;
    t.columns = {
        {msg(QT_TRANSLATE_NOOP("gpusizer", "Setting"))}, {msg(QT_TRANSLATE_NOOP("gpusizer", "Value"))}, {verbatim("")}};
    const auto defaultMark = [](bool isDefault) {
        return isDefault ? Cell::of(msg(QT_TRANSLATE_NOOP("gpusizer", "default"))) : Cell{};
    };
    const auto& m = s.model;
    const auto p = core::countParams(m);
    t.add({Cell::of(msg(QT_TRANSLATE_NOOP("gpusizer", "Model"))), Cell::of(modelDescription(s)), Cell{}}, "model");
    t.add({Cell::of(msg(QT_TRANSLATE_NOOP("gpusizer", "Architecture"))),
           Cell::of(
               msg(QT_TRANSLATE_NOOP("gpusizer", "%1 layers, hidden %2, %3 heads (%4 kv), MLP %5, vocabulary %6%7%8"),
                   count(m.numLayers), count(m.hiddenSize), count(m.numHeads),
                   count(m.numKvHeads > 0 ? m.numKvHeads : m.numHeads), count(m.intermediateSize), count(m.vocabSize),
                   m.tiedEmbeddings ? msg(QT_TRANSLATE_NOOP("gpusizer", ", tied embeddings")) : verbatim(""),
                   m.isMoe() ? msg(QT_TRANSLATE_NOOP("gpusizer", ", %1 experts (%2 per token)"),
                                   count(m.moe.numExperts), count(m.moe.expertsPerToken))
                             : verbatim(""))),
           Cell{}},
          "architecture");
    if (m.vision.present()) {
        t.add({Cell::of(msg(QT_TRANSLATE_NOOP("gpusizer", "Vision encoder"))),
               Cell::of(msg(QT_TRANSLATE_NOOP("gpusizer", "%1: %2 blocks, width %3, %4-pixel patches; %5 with its "
                                                          "projector (%6)"),
                            verbatim(core::visionFamilyName(m.vision.family)), count(m.vision.depth),
                            count(m.vision.hiddenSize), count(m.vision.patchSize),
                            params(p.visionTower + p.visionProjector), params(p.visionProjector))),
               Cell{}},
              "vision");
    }
    t.add({Cell::of(msg(QT_TRANSLATE_NOOP("gpusizer", "Parameters"))),
           Cell::of(msg(QT_TRANSLATE_NOOP("gpusizer", "%1 total, %2 trainable"), params(p.total),
                        params(core::estimate(s, core::Detail::NumbersOnly).trainableParams))),
           Cell{}},
          "parameters");
    for (const auto& f : core::scenarioFields()) {
        if (!core::appliesTo(f.methods, s.method) || (f.writtenWhen && !f.writtenWhen(s))) {
            continue;
        }
        if (f.type == core::FieldType::Special) {
            if (std::string_view(f.key) == "lora.targets") {
                t.add({Cell::of(fieldLabel(f)), Cell::of(verbatim(targetList(s))), Cell{}}, f.key);
            } else if (std::string_view(f.key) == "lora.modules_to_save" &&
                       (s.lora.saveLmHead || s.lora.saveEmbedding)) {
                t.add({Cell::of(fieldLabel(f)),
                       Cell::of(verbatim(std::string(s.lora.saveLmHead ? "lm_head" : "") +
                                         (s.lora.saveLmHead && s.lora.saveEmbedding ? ", " : "") +
                                         (s.lora.saveEmbedding ? "embed_tokens" : ""))),
                       Cell{}},
                      f.key);
            } else if (std::string_view(f.key) == "gpu") {
                const auto* gpu = catalog.findGpu(s.gpuId);
                t.add({Cell::of(fieldLabel(f)),
                       Cell::of(gpu != nullptr ? verbatim(gpu->name) : msg(QT_TRANSLATE_NOOP("gpusizer", "none"))),
                       defaultMark(gpu == nullptr)},
                      f.key);
            }
            continue;
        }
        const bool isDefault = f.get(s) == f.defaultValue;
        Message value = fieldValue(f, s);
        if (std::string_view(f.key) == "sharding_engine" && s.shardingEngine == core::ShardingEngine::Auto) {
            value = msg(QT_TRANSLATE_NOOP("gpusizer", "%1, in effect: %2"), value, label(core::profileFor(s).engine));
        }
        t.add({Cell::of(fieldLabel(f)).withTooltip(fieldTooltip(f)), Cell::of(value), defaultMark(isDefault)}, f.key);
    }
    return t;
}

Table fieldsTable() {
    Table t;
    t.columns = {{msg(QT_TRANSLATE_NOOP("gpusizer", "Key"))},
                 {msg(QT_TRANSLATE_NOOP("gpusizer", "Type"))},
                 {msg(QT_TRANSLATE_NOOP("gpusizer", "Allowed"))},
                 {msg(QT_TRANSLATE_NOOP("gpusizer", "Default"))},
                 {msg(QT_TRANSLATE_NOOP("gpusizer", "What it changes"))}};
    const core::Scenario defaults;
    for (const auto& f : core::scenarioFields()) {
        Message allowed;
        switch (f.type) {
        case core::FieldType::Integer:
            allowed = msg(QT_TRANSLATE_NOOP("gpusizer", "%1 to %2"), count(static_cast<std::int64_t>(f.min)),
                          count(static_cast<std::int64_t>(f.max)));
            break;
        case core::FieldType::Number:
            allowed = f.maxExclusive
                          ? msg(QT_TRANSLATE_NOOP("gpusizer", "%1 to below %2"), plainNumber(f.min), plainNumber(f.max))
                          : msg(QT_TRANSLATE_NOOP("gpusizer", "%1 to %2"), plainNumber(f.min), plainNumber(f.max));
            break;
        case core::FieldType::Flag:
            allowed = verbatim("true, false");
            break;
        case core::FieldType::Choice: {
            std::string codes;
            for (const auto& c : f.choices) {
                codes += (codes.empty() ? "" : ", ") + c.code;
            }
            allowed = verbatim(codes);
            break;
        }
        case core::FieldType::Special:
            allowed = msg(QT_TRANSLATE_NOOP("gpusizer", "see docs/scenario-format.md"));
            break;
        }
        Message def;
        switch (f.type) {
        case core::FieldType::Integer:
        case core::FieldType::Number:
            def = verbatim(plainNumber(f.defaultValue));
            break;
        case core::FieldType::Flag:
            def = verbatim(f.defaultValue != 0.0 ? "true" : "false");
            break;
        case core::FieldType::Choice:
            def = verbatim(f.codeOf(static_cast<int>(f.defaultValue)));
            break;
        case core::FieldType::Special:
            def = verbatim("");
            break;
        }
        t.add({Cell::of(verbatim(f.key)), Cell::of(typeName(f.type)), Cell::of(allowed), Cell::of(def),
               Cell::of(fieldTooltip(f))},
              f.key);
    }
    return t;
}

} // namespace gpusizer::present
