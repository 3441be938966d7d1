#include "gpusizer/plan/Measurement.h"

#include "gpusizer/memory/Estimate.h"
#include "gpusizer/scenario/JsonRead.h"
#include "gpusizer/scenario/Lowercase.h"
#include "gpusizer/scenario/ScenarioJson.h"
#include "gpusizer/scenario/Units.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace gpusizer::core {

using detail::ObjectReader;
using nlohmann::json;

namespace {

using detail::lowercase;

constexpr double kMaxBytes = 1e15;

/// Every rank's figures (the script under torchrun): one object per rank, as many as the world size.
template <typename ToBytes>
Result<std::vector<Measurement::Rank>> readRanks(const json& doc, const ObjectReader& r, std::int64_t worldSize,
                                                 ToBytes toBytes) {
    std::vector<Measurement::Rank> ranks;
    if (!doc.contains("ranks")) {
        return ranks;
    }
    const json& list = doc["ranks"];
    if (!list.is_array() || static_cast<std::int64_t>(list.size()) != worldSize) {
        return fail(ErrorCode::WrongType,
                    words(QT_TRANSLATE_NOOP("gpusizer", "'ranks' must hold one object per process (%1)"),
                          std::to_string(worldSize)),
                    r.field("ranks"));
    }
    for (std::size_t i = 0; i < list.size(); ++i) {
        if (!list[i].is_object()) {
            return fail(ErrorCode::WrongType, QT_TRANSLATE_NOOP("gpusizer", "each rank must be a JSON object"),
                        r.field("ranks") + "[" + std::to_string(i) + "]");
        }
        const ObjectReader one(list[i], r.field("ranks") + "[" + std::to_string(i) + "]");
        Measurement::Rank rank;
        GPUSIZER_ASSIGN(rank.rank, one.integer("rank", 0, worldSize - 1));
        GPUSIZER_ASSIGN(auto allocated, one.optionalNumber("max_memory_allocated_bytes", 0, kMaxBytes));
        GPUSIZER_ASSIGN(auto reserved, one.optionalNumber("max_memory_reserved_bytes", 0, kMaxBytes));
        GPUSIZER_ASSIGN(auto device, one.optionalNumber("device_used_bytes", 0, kMaxBytes));
        rank.allocatedBytes = toBytes(allocated);
        rank.reservedBytes = toBytes(reserved);
        rank.deviceUsedBytes = toBytes(device);
        ranks.push_back(rank);
    }
    return ranks;
}

} // namespace

Result<Measurement> parseMeasurement(std::string_view bytes, std::string_view whereView, const Catalog& catalog) {
    const std::string where(whereView);
    GPUSIZER_ASSIGN(json doc, detail::parseDocument(bytes, where));
    if (!doc.is_object()) {
        return fail(ErrorCode::WrongFormat, QT_TRANSLATE_NOOP("gpusizer", "a measurement must be a JSON object"),
                    where);
    }
    ObjectReader r(doc, where);
    GPUSIZER_CHECK(detail::checkFormatVersion(
        r, "gpusizer-measurement", QT_TRANSLATE_NOOP("gpusizer", "'format' is '%1', expected 'gpusizer-measurement'")));
    Measurement m;
    GPUSIZER_ASSIGN(m.device, r.string("device"));
    if (m.device != "cuda" && m.device != "cpu") {
        return fail(ErrorCode::UnknownValue, QT_TRANSLATE_NOOP("gpusizer", "'device' must be cuda or cpu"),
                    r.field("device"));
    }
    GPUSIZER_ASSIGN(auto gpuName, r.optionalString("gpu_name"));
    m.gpuName = gpuName.value_or("");
    GPUSIZER_ASSIGN(auto implementation, r.optionalString("implementation"));
    m.implementation = implementation.value_or("");
    GPUSIZER_ASSIGN(m.paramsTotal, r.integer("params_total", 1, static_cast<std::int64_t>(1e13)));
    GPUSIZER_ASSIGN(m.paramsTrainable, r.integer("params_trainable", 0, m.paramsTotal));
    GPUSIZER_ASSIGN(auto allocated, r.optionalNumber("max_memory_allocated_bytes", 0, kMaxBytes));
    GPUSIZER_ASSIGN(auto reserved, r.optionalNumber("max_memory_reserved_bytes", 0, kMaxBytes));
    GPUSIZER_ASSIGN(auto device, r.optionalNumber("device_used_bytes", 0, kMaxBytes));
    auto toBytes = [](std::optional<double> v) {
        return v ? std::optional<std::int64_t>(static_cast<std::int64_t>(*v)) : std::nullopt;
    };
    m.allocatedBytes = toBytes(allocated);
    m.reservedBytes = toBytes(reserved);
    m.deviceUsedBytes = toBytes(device);
    if (m.device == "cuda" && !m.allocatedBytes) {
        return fail(ErrorCode::MissingField,
                    QT_TRANSLATE_NOOP("gpusizer", "a CUDA run must report max_memory_allocated_bytes"),
                    r.field("max_memory_allocated_bytes"));
    }
    if (!doc.contains("step_seconds") || !doc["step_seconds"].is_array()) {
        return fail(ErrorCode::MissingField, QT_TRANSLATE_NOOP("gpusizer", "'step_seconds' must be an array"),
                    r.field("step_seconds"));
    }
    for (const auto& t : doc["step_seconds"]) {
        if (!t.is_number() || t.get<double>() <= 0 || !std::isfinite(t.get<double>())) {
            return fail(ErrorCode::WrongType,
                        QT_TRANSLATE_NOOP("gpusizer", "'step_seconds' must hold positive numbers"),
                        r.field("step_seconds"));
        }
        m.stepSeconds.push_back(t.get<double>());
    }
    GPUSIZER_ASSIGN(m.tokensPerSecond, r.optionalNumber("tokens_per_second", 0, 1e12));
    GPUSIZER_ASSIGN(m.secondsToFirstStep, r.optionalNumber("seconds_to_first_step", 0, 1e7));
    GPUSIZER_ASSIGN(auto builtOn, r.optionalString("built_on"));
    m.builtOn = builtOn.value_or("");
    GPUSIZER_ASSIGN(auto world, r.optionalInteger("world_size", 1, 1'000'000));
    m.worldSize = world.value_or(1);
    GPUSIZER_ASSIGN(m.ranks, readRanks(doc, r, m.worldSize, toBytes));
    if (doc.contains("not_as_in_scenario")) {
        const json& changed = doc["not_as_in_scenario"];
        const bool strings = changed.is_array() &&
                             std::all_of(changed.begin(), changed.end(), [](const json& v) { return v.is_string(); });
        if (!strings) {
            return fail(ErrorCode::WrongType,
                        QT_TRANSLATE_NOOP("gpusizer", "'not_as_in_scenario' must be a list of texts"),
                        r.field("not_as_in_scenario"));
        }
        m.notAsInScenario = changed.get<std::vector<std::string>>();
    }
    if (!doc.contains("scenario") || !doc["scenario"].is_object()) {
        return fail(ErrorCode::MissingField,
                    QT_TRANSLATE_NOOP("gpusizer", "'scenario' (the scenario the script ran) is missing"),
                    r.field("scenario"));
    }
    GPUSIZER_ASSIGN(auto parsed, parseScenario(doc["scenario"].dump(), where + ": scenario", catalog));
    m.scenario = parsed.scenario;
    return m;
}

std::vector<Measurement> storedMeasurements(const Scenario& scenario, const Catalog& catalog) {
    std::vector<Measurement> out;
    for (const auto& text : scenario.measurements) {
        if (auto m = parseMeasurement(text, "stored measurement", catalog)) {
            out.push_back(std::move(*m));
        }
    }
    return out;
}

const GpuSpec* matchGpuName(std::string_view deviceName, const Catalog& catalog) {
    const std::string name = lowercase(deviceName);
    const GpuSpec* best = nullptr;
    std::size_t bestScore = 0;
    for (const auto& g : catalog.gpus) {
        // The catalog name's model number (the first word with a digit that is not a memory size, e.g. "h100",
        // "4090", "mi300x") must appear in the device name; other matching words break ties.
        std::vector<std::string> words;
        std::string word;
        for (char ch : lowercase(g.name) + " ") {
            if (std::isalnum(static_cast<unsigned char>(ch))) {
                word += ch;
            } else if (!word.empty()) {
                words.push_back(word);
                word.clear();
            }
        }
        auto isModel = [](const std::string& w) {
            const bool digit = std::any_of(w.begin(), w.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
            const bool memory = w.size() > 2 && w.compare(w.size() - 2, 2, "gb") == 0;
            return digit && !memory;
        };
        const auto model = std::find_if(words.begin(), words.end(), isModel);
        if (model == words.end() || name.find(*model) == std::string::npos) {
            continue;
        }
        std::size_t score = 1;
        for (const auto& w : words) {
            if (&w != &*model && name.find(w) != std::string::npos) {
                ++score;
            }
        }
        // NVIDIA reports SXM H100s as "H100 80GB HBM3" and PCIe ones as "H100 PCIe".
        if (name.find("hbm3") != std::string::npos && g.formFactor == "SXM") {
            ++score;
        }
        if (name.find("pcie") != std::string::npos && g.formFactor == "PCIe") {
            ++score;
        }
        if (score > bestScore) {
            best = &g;
            bestScore = score;
        }
    }
    return best;
}

namespace {

/// How the measured run differs from the scenario, or what kind of run it was: said before the figures.
void noteHowItRan(MeasuredComparison& c, const Scenario& scenario, const Measurement& m) {
    auto note = [&](std::string code, Words text) { c.notes.push_back({std::move(code), std::move(text)}); };
    if (m.scenario.microBatch != scenario.microBatch || m.scenario.seqLen != scenario.seqLen ||
        m.scenario.method != scenario.method) {
        note("different_run_shape",
             QT_TRANSLATE_NOOP("gpusizer", "the measurement ran a different method, micro-batch or sequence length "
                                           "than the scenario: the comparison uses the measured run's shape"));
    }
    if (!m.notAsInScenario.empty()) {
        std::string list;
        for (const auto& line : m.notAsInScenario) {
            list += (list.empty() ? "" : "; ") + line;
        }
        note("not_as_in_scenario",
             words(QT_TRANSLATE_NOOP("gpusizer", "the script ran this run instead of the scenario's, and it is "
                                                 "compared with its own estimate: %1"),
                   list));
    }
    if (m.worldSize > 1) {
        note("largest_rank", words(QT_TRANSLATE_NOOP("gpusizer", "%1 processes ran it: each memory figure is the "
                                                                 "largest rank's, as the card that runs out first "
                                                                 "decides (every rank's peaks are in the file)"),
                                   std::to_string(m.worldSize)));
    }
    if (m.cpuRun()) {
        note("cpu_run",
             QT_TRANSLATE_NOOP("gpusizer",
                               "a CPU smoke run: no GPU memory was measured, and it is never used for calibration"));
    }
}

} // namespace

Result<MeasuredComparison> compareMeasured(const Scenario& scenario, const Measurement& m, const Catalog& catalog,
                                           const PlanInputs& inputs) {
    MeasuredComparison c;
    const ParamCounts p = countParams(scenario.model);
    const std::int64_t measuredBase =
        m.scenario.method == Method::Full ? m.paramsTotal : m.paramsTotal - m.paramsTrainable;
    const double gap = std::abs(static_cast<double>(measuredBase - p.total)) / static_cast<double>(p.total);
    if (gap > 0.01) {
        return fail(
            ErrorCode::Inconsistent,
            words(QT_TRANSLATE_NOOP("gpusizer",
                                    "the measurement ran another model: %1 base parameters against %2 in the scenario"),
                  std::to_string(measuredBase), std::to_string(p.total)),
            "params_total");
    }
    noteHowItRan(c, scenario, m);
    auto note = [&](std::string code, Words text) { c.notes.push_back({std::move(code), std::move(text)}); };
    c.gpu = !m.scenario.gpuId.empty() ? catalog.findGpu(m.scenario.gpuId) : nullptr;
    if (c.gpu == nullptr && !m.gpuName.empty()) {
        c.gpu = matchGpuName(m.gpuName, catalog);
    }
    Scenario ran = m.scenario;
    if (c.gpu != nullptr) {
        placeOnCard(ran, *c.gpu); // the card it ran on, however it was named
    }
    const Estimate e = estimate(ran);
    auto row = [&](const char* what, std::optional<std::int64_t> measured, std::int64_t estimated) {
        MeasuredRow r;
        r.what = what;
        r.available = measured.has_value() && *measured > 0;
        r.estimated = toGiB(static_cast<double>(estimated));
        if (r.available) {
            r.measured = toGiB(static_cast<double>(*measured));
            r.errorShare = (r.estimated - r.measured) / r.measured;
        }
        c.rows.push_back(r);
    };
    row("allocated", m.allocatedBytes, e.measuredAllocatedBytes());
    row("reserved", m.reservedBytes, e.measuredReservedBytes());
    row("device", m.deviceUsedBytes, e.deviceBytes);
    MeasuredRow step;
    step.what = "step_seconds";
    if (c.gpu != nullptr && !m.cpuRun() && !m.stepSeconds.empty()) {
        std::vector<double> sorted = m.stepSeconds;
        std::sort(sorted.begin(), sorted.end());
        step.available = true;
        step.measured = sorted[sorted.size() / 2]; // median step
        Scenario oneStep = m.scenario;
        if (oneStep.runKind != RunKind::Grpo) {
            // The script times single micro-batch steps; a GRPO step is the optimizer step over its generation batch.
            oneStep.gradientAccumulation = 1;
        }
        step.estimated = stepTime(oneStep, *c.gpu, inputs).stepSeconds;
        step.errorShare = (step.estimated - step.measured) / step.measured;
    } else if (!m.cpuRun()) {
        note("unknown_gpu",
             words(QT_TRANSLATE_NOOP("gpusizer", "the GPU '%1' is not in the catalog: step time not compared"),
                   m.gpuName));
    }
    c.rows.push_back(step);
    return c;
}

Result<CalibrationFit> fitCalibration(const std::vector<Measurement>& measurements, const Catalog& catalog) {
    CalibrationFit fit;
    double overheadSum = 0;
    double mfuSum = 0;
    int mfuRuns = 0;
    for (const auto& m : measurements) {
        if (m.cpuRun()) {
            fit.notes.push_back(
                {"cpu_run", QT_TRANSLATE_NOOP("gpusizer", "a CPU smoke run was left out: it measures no GPU memory")});
            continue;
        }
        const GpuSpec* gpu =
            !m.scenario.gpuId.empty() ? catalog.findGpu(m.scenario.gpuId) : matchGpuName(m.gpuName, catalog);
        if (gpu == nullptr || !m.allocatedBytes || !m.deviceUsedBytes) {
            fit.notes.push_back(
                {"unusable_run",
                 words(QT_TRANSLATE_NOOP("gpusizer", "a run on '%1' was left out (GPU not in the catalog or "
                                                     "memory figures missing)"),
                       m.gpuName)});
            continue;
        }
        if (fit.runs == 0) {
            fit.gpuId = gpu->id;
            fit.framework = m.scenario.framework;
        } else if (gpu->id != fit.gpuId || m.scenario.framework != fit.framework) {
            fit.notes.push_back(
                {"other_gpu",
                 words(QT_TRANSLATE_NOOP("gpusizer", "a run on %1 was left out: calibrations are per GPU model "
                                                     "and framework (this one is %2)"),
                       gpu->id, fit.gpuId)});
            continue;
        }
        Scenario uncorrected = m.scenario;
        uncorrected.overheadCorrectionBytes = 0;
        placeOnCard(uncorrected, *gpu); // the card it ran on, however it was named: its NCCL buffers are modelled
        const Estimate e = estimate(uncorrected);
        const double measuredOverhead = static_cast<double>(*m.deviceUsedBytes - *m.allocatedBytes);
        const double estimatedOverhead = static_cast<double>(e.deviceBytes - e.allocatedPeakBytes);
        overheadSum += measuredOverhead - estimatedOverhead;
        ++fit.runs;
        if (generatesOnline(m.scenario)) {
            // transformers' generate runs beside the matmuls at a speed the time model only bounds from below: the
            // difference would be charged to the matmuls.
            fit.notes.push_back(
                {"generation_not_fitted",
                 QT_TRANSLATE_NOOP("gpusizer", "a run that generates as it trains (GRPO) was left out of the HFU fit: "
                                               "its generation's time is not the matmuls'")});
        } else if (m.tokensPerSecond && *m.tokensPerSecond > 0 && m.scenario.gpus == 1 && gpu->bf16Tflops > 0) {
            // The matmuls' utilisation: the measured step less what the time model spends outside the matmuls (the
            // element-wise kernels and the optimizer step at the card's bandwidth), so that the fitted figure gives
            // the measured step back. Matmul time scales as 1 / utilisation: estimate at any figure and rescale.
            PlanInputs at;
            at.mfu = 0.5;
            const StepTime t = stepTime(uncorrected, *gpu, at, e);
            const double measured = t.tokensPerStep / *m.tokensPerSecond;
            const double outside = t.stepSeconds - t.matmulSeconds;
            // Only where the step's length follows the matmuls: not under the memory floor, offload's copies or
            // exposed communication.
            const bool matmulBound = t.computeSeconds >= t.memoryFloorSeconds && t.exposedCommSeconds <= 0.0;
            if (matmulBound && measured > outside && t.matmulSeconds > 0) {
                mfuSum += std::min(1.0, *at.mfu * t.matmulSeconds / (measured - outside));
                ++mfuRuns;
            } else {
                fit.notes.push_back(
                    {"speed_not_fitted",
                     QT_TRANSLATE_NOOP("gpusizer", "a run's step time was left out of the HFU fit: by the time model, "
                                                   "memory traffic or communication, not the matmuls, sets its "
                                                   "length")});
            }
        }
    }
    if (fit.runs == 0) {
        return fail(ErrorCode::Inconsistent,
                    QT_TRANSLATE_NOOP("gpusizer", "no GPU run to calibrate from (CPU runs never are)"), "measurements");
    }
    fit.overheadCorrectionBytes = static_cast<std::int64_t>(std::llround(overheadSum / fit.runs));
    if (mfuRuns > 0) {
        fit.mfu = mfuSum / mfuRuns;
    }
    return fit;
}

} // namespace gpusizer::core
