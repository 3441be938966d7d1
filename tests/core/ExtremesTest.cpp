// Every field at the ends of its range, and the most extreme model shapes the loaders accept, through estimate, fit,
// plan and advise: no negative or zero sizes, no overflow (the sanitizer build traps signed overflow and
// out-of-range float conversions), and every accepted scenario saves in a form its own loader reopens.
#include "gpusizer/catalogs/ShippedCatalogs.h"
#include "gpusizer/memory/Estimate.h"
#include "gpusizer/plan/Advisor.h"
#include "gpusizer/plan/FitTable.h"
#include "gpusizer/plan/Planner.h"
#include "gpusizer/scenario/HfConfig.h"
#include "gpusizer/scenario/ScenarioFields.h"
#include "gpusizer/scenario/ScenarioJson.h"

#include <cmath>
#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace gpusizer;

namespace {

const core::Catalog& catalog() {
    static const core::Catalog c = catalogs::loadCatalogs().catalog;
    return c;
}

/// Sizes, fits, plans and advises one scenario and checks that every figure is a positive, finite size.
void exercise(const core::Scenario& s, const std::string& label) {
    SCOPED_TRACE(label);
    const core::Estimate e = core::estimate(s);
    for (core::Component c : core::kAllComponents) {
        EXPECT_GE(e.perGpu[c], 0) << core::componentKey(c);
    }
    EXPECT_GT(e.deviceBytes, 0);
    EXPECT_LE(e.bandLowBytes, e.deviceBytes);
    EXPECT_GE(e.bandHighBytes, e.deviceBytes);
    EXPECT_GE(e.params.total, 1);
    EXPECT_LE(static_cast<double>(e.params.total), core::kMaxModelParams);
    EXPECT_GE(e.trainableParams, 0);
    const core::GpuSpec* h100 = catalog().findGpu("h100-sxm");
    ASSERT_NE(h100, nullptr);
    core::PlanInputs in; // 100 M tokens, one epoch
    const core::Candidate asIs = core::fitAsIs(s, *h100, in);
    // Sized, or refused before sizing with a reason (a million cards exceeds the card limit).
    EXPECT_TRUE(asIs.deviceBytes > 0 || asIs.why != core::Infeasible::None);
    const auto plans = core::planCatalog(s, catalog().gpus, in);
    for (const auto& plan : plans) {
        if (plan.found) {
            EXPECT_GT(plan.best.scenario.gpus, 0);
            EXPECT_GT(plan.best.deviceBytes, 0);
            EXPECT_LE(plan.best.deviceBytes, plan.best.usableBytes);
            const double cost = core::costOf(plan.best, in);
            EXPECT_TRUE(std::isfinite(cost) && cost > 0) << plan.gpu->id;
        }
    }
    const core::OomAdvice advice = core::adviseOom(s, *h100, in);
    for (const auto& step : advice.steps) {
        EXPECT_GE(step.deviceAfterAlone, 0) << core::toString(step.kind);
    }
    EXPECT_GE(core::longestSequenceThatFits(s, h100->usableBytes()), 0);
    EXPECT_GE(core::largestMicroBatchThatFits(s, h100->usableBytes()), 0);
}

/// Saves a scenario and reads it back: it must reopen, and estimate the same.
void reopens(const core::Scenario& s, const std::string& label) {
    SCOPED_TRACE(label);
    const std::string saved = core::scenarioToJson(s);
    const auto back = core::parseScenario(saved, "saved.json", catalog());
    ASSERT_TRUE(back.has_value()) << back.error().where << ": " << back.error().message() << "\n" << saved;
    EXPECT_EQ(core::estimate(back->scenario).deviceBytes, core::estimate(s).deviceBytes);
}

core::Scenario base(core::Method method) {
    core::Scenario s = core::defaultScenario(catalog());
    s.method = method;
    return s;
}

} // namespace

TEST(Extremes, EveryNumericFieldAtBothEndsOfItsRangeSizesPlansAdvisesAndReopens) {
    int accepted = 0;
    int refused = 0;
    for (core::Method method : {core::Method::Full, core::Method::Lora, core::Method::Qlora}) {
        for (const auto& f : core::scenarioFields()) {
            if ((f.type != core::FieldType::Integer && f.type != core::FieldType::Number) ||
                !core::appliesTo(f.methods, method)) {
                continue;
            }
            // The top of an exclusive range is the largest value below it that the field's type holds.
            const double top = f.maxExclusive ? std::nextafter(f.max, f.min) : f.max;
            for (double value : {f.min, top}) {
                core::Scenario s = base(method);
                f.set(s, value);
                const std::string label =
                    std::string(f.key) + " = " + std::to_string(value) + " (" + core::toString(method) + ")";
                if (auto ok = core::validate(s); !ok) {
                    // A refusal must say which field and why, never be silent.
                    EXPECT_FALSE(ok.error().where.empty()) << label;
                    EXPECT_FALSE(ok.error().message().empty()) << label;
                    ++refused;
                    continue;
                }
                ++accepted;
                exercise(s, label);
                reopens(s, label);
            }
        }
    }
    // Refused only where the end of one range breaks another rule (TP or PP 1,024 on one GPU, EP without experts,
    // 2^24 tokens x the 8B model's vocabulary beyond a petabyte): at most a third of the ends tried.
    EXPECT_GT(accepted, 0);
    EXPECT_LE(refused * 3, accepted + refused);
}

TEST(Extremes, TheLongestSequenceAndLargestBatchTogetherAreRefusedInWordsNotOverflowed) {
    core::Scenario s = base(core::Method::Full);
    s.seqLen = 16'777'216; // the field's maximum
    s.microBatch = 65'536; // the field's maximum
    // 2^24 x 2^16 = 2^40 tokens per micro-batch: the logits alone are 2^40 x 128,256 x 4 B, about 2^61 B, far beyond
    // the petabyte bound.
    const auto ok = core::validate(s);
    ASSERT_FALSE(ok.has_value());
    EXPECT_EQ(ok.error().where, "seq_len");
    EXPECT_NE(ok.error().message().find("petabyte"), std::string::npos);
    // A search that reaches such a step (the estimate is asked anyway) gets a saturated answer, not a wrapped one.
    const core::Estimate e = core::estimate(s);
    EXPECT_TRUE(e.beyondRange);
    EXPECT_EQ(e.deviceBytes, static_cast<std::int64_t>(core::kMaxEstimateBytes));
}

TEST(Extremes, ModelShapesAtTheirLimitsAreSizedOrRefusedByNameAndNeverGoNegative) {
    struct Shape {
        const char* label;
        const char* config;
        bool accepted;
        const char* refusedField;
    };
    // hidden 1,000,000 x 1 layer x vocab 1: 2 x 10^6 x 10^6 (q, o) + 2 x 10^6 x 10^6 / 1 (k, v) + 3 x 10^6 x 10^6
    // (MLP, intermediate 10^6) = 7 x 10^12 parameters, under the 10^14 bound.
    const Shape shapes[] = {
        {"widest accepted", R"({"hidden_size": 1000000, "num_hidden_layers": 1, "num_attention_heads": 1,
            "intermediate_size": 1000000, "vocab_size": 1})",
         true, ""},
        // 10,000 layers x 3 x 10^6 x 10^7 (MLP) = 3 x 10^17 parameters: beyond 10^14, refused before any product.
        {"too many parameters", R"({"hidden_size": 1000000, "num_hidden_layers": 10000, "num_attention_heads": 1,
            "intermediate_size": 10000000, "vocab_size": 10000000})",
         false, "hidden_size"},
        {"experts per token above the experts", R"({"hidden_size": 4096, "num_hidden_layers": 32,
            "num_attention_heads": 32, "intermediate_size": 14336, "vocab_size": 32000, "num_local_experts": 8,
            "num_experts_per_tok": 9})",
         false, "num_experts_per_tok"},
        // A million experts of width 10^7 in 10,000 layers: 10^4 x 10^6 x 3 x 10^3 x 10^7 overflows 64 bits; refused.
        {"a million experts", R"({"hidden_size": 1000, "num_hidden_layers": 10000, "num_attention_heads": 1,
            "intermediate_size": 1000, "vocab_size": 1000, "num_local_experts": 1000000, "num_experts_per_tok": 1,
            "moe_intermediate_size": 10000000})",
         false, "hidden_size"},
        {"gpt2 with a huge n_positions", R"({"model_type": "gpt2", "n_embd": 768, "n_layer": 12, "n_head": 12,
            "vocab_size": 50257, "n_positions": 100000000})",
         false, "n_positions"},
        {"a dropout of 1e308", R"({"hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
            "intermediate_size": 128, "vocab_size": 100, "attention_dropout": 1e308})",
         false, "attention_dropout"},
        {"a dropout given as text", R"({"hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
            "intermediate_size": 128, "vocab_size": 100, "attention_dropout": "0.1"})",
         false, "attention_dropout"},
    };
    for (const Shape& shape : shapes) {
        SCOPED_TRACE(shape.label);
        const auto imported = core::importHfConfig(shape.config, "config.json");
        ASSERT_EQ(imported.has_value(), shape.accepted) << (imported ? "" : imported.error().where);
        if (!imported) {
            EXPECT_EQ(imported.error().where, std::string("config.json: ") + shape.refusedField)
                << imported.error().message();
            continue;
        }
        core::Scenario s = base(core::Method::Full);
        s.modelId.clear();
        s.model = imported->arch;
        s.seqLen = 128;
        s.microBatch = 1;
        ASSERT_TRUE(core::validate(s).has_value());
        exercise(s, shape.label);
        reopens(s, shape.label);
    }
}

TEST(Extremes, ASizeOnlyModelAtTheLargestParameterCountIsSizedNotRefusedForAFieldTheUserDidNotWrite) {
    // params_billion 31,883 used to be refused for "model.num_hidden_layers"; the range is now 0.001 to 10,000 and
    // the size ladder's widest rung (405B: 126 layers) reaches 10,000 B with about 3,100 layers, under the limit.
    for (const char* billions : {"0.001", "10000"}) {
        SCOPED_TRACE(billions);
        const std::string doc =
            std::string(R"({"format": "gpusizer-scenario", "version": 1, "model": {"params_billion": )") + billions +
            R"(}, "method": "full", "seq_len": 512, "micro_batch": 1})";
        const auto parsed = core::parseScenario(doc, "size.json", catalog());
        ASSERT_TRUE(parsed.has_value()) << parsed.error().where << ": " << parsed.error().message();
        exercise(parsed->scenario, billions);
        reopens(parsed->scenario, billions);
    }
    // Found by the scenario fuzzer: 22 B was saved as the shape's own 21.96 B, which names a different depth when read
    // back, so the reopened scenario sized differently. The count asked for is saved now.
    for (const char* billions : {"22", "0.3", "7", "13.5", "123.4", "4321"}) {
        SCOPED_TRACE(billions);
        const std::string doc =
            std::string(R"({"format": "gpusizer-scenario", "version": 1, "model": {"params_billion": )") + billions +
            R"(}, "method": "lora"})";
        const auto parsed = core::parseScenario(doc, "size.json", catalog());
        ASSERT_TRUE(parsed.has_value());
        reopens(parsed->scenario, billions);
    }
    const auto over = core::parseScenario(
        R"({"format": "gpusizer-scenario", "version": 1, "model": {"params_billion": 31883}, "method": "full"})",
        "size.json", catalog());
    ASSERT_FALSE(over.has_value());
    EXPECT_EQ(over.error().where, "size.json: model: params_billion");
}
