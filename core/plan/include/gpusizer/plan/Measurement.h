#pragma once

#include "gpusizer/plan/Planning.h"
#include "gpusizer/scenario/Catalog.h"
#include "gpusizer/scenario/Result.h"
#include "gpusizer/scenario/Scenario.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpusizer::core {

/// A result written by the measurement script (format "gpusizer-measurement").
struct Measurement {
    std::string device; ///< "cuda" or "cpu"
    std::string gpuName;
    std::string implementation; ///< "transformers" or "builtin"
    std::int64_t paramsTotal = 0;
    std::int64_t paramsTrainable = 0;
    std::optional<std::int64_t> allocatedBytes;
    std::optional<std::int64_t> reservedBytes;
    std::optional<std::int64_t> deviceUsedBytes;
    std::vector<double> stepSeconds;
    std::optional<double> tokensPerSecond;
    /// Processes that ran it (torchrun's WORLD_SIZE); the memory figures above are the largest rank's.
    std::int64_t worldSize = 1;
    /// Each rank's own peaks, when several ran (allocated, reserved, device; bytes, absent on a CPU run).
    struct Rank {
        std::int64_t rank = 0;
        std::optional<std::int64_t> allocatedBytes;
        std::optional<std::int64_t> reservedBytes;
        std::optional<std::int64_t> deviceUsedBytes;
    };
    std::vector<Rank> ranks;
    /// Seconds from the script's start to the end of its first step (building the model included).
    std::optional<double> secondsToFirstStep;
    std::string builtOn; ///< "meta" or "deepspeed.zero.Init" (scripts before 0.9 leave it empty: built on the CPU)
    Scenario scenario;   ///< the scenario the script ran
    /// What the one-process script ran differently from the scenario it was made for ("loss: ... -> ... (why)").
    std::vector<std::string> notAsInScenario;

    /// CPU smoke runs measure no GPU memory and are never used for calibration.
    bool cpuRun() const { return device != "cuda"; }
};

/// Reads a measurement file; refuses truncated or malformed files with the field and reason.
Result<Measurement> parseMeasurement(std::string_view bytes, std::string_view where, const Catalog& catalog);

/// The measurements kept with a scenario, parsed (unreadable ones are skipped: they were checked when imported).
std::vector<Measurement> storedMeasurements(const Scenario& scenario, const Catalog& catalog);

/// One figure, estimated and measured.
struct MeasuredRow {
    std::string what; ///< "allocated", "reserved", "device", "step_seconds"
    bool available = false;
    double estimated = 0;
    double measured = 0;
    double errorShare = 0; ///< (estimated - measured) / measured
};

/// Estimate against measurement for a scenario.
struct MeasuredComparison {
    std::vector<MeasuredRow> rows;
    const GpuSpec* gpu = nullptr; ///< the catalog GPU matched to the measurement's GPU name, if any
    std::vector<Warning> notes;
};

/// Compares the scenario's estimate with a measurement of it. Refuses a measurement of another model (parameter
/// counts more than 1% apart); warns when the run shape differs or the run was on a CPU.
Result<MeasuredComparison> compareMeasured(const Scenario& scenario, const Measurement& measurement,
                                           const Catalog& catalog, const PlanInputs& inputs = {});

/// Constants fitted to measured runs of one GPU model under one framework.
struct CalibrationFit {
    std::string gpuId;
    Framework framework = Framework::Generic;
    int runs = 0;                             ///< GPU runs used (CPU runs never are)
    std::int64_t overheadCorrectionBytes = 0; ///< measured minus estimated (device - allocated), averaged
    std::optional<double> mfu;                ///< measured tokens/s x FLOPs per token / BF16 peak, averaged
    std::vector<Warning> notes;               ///< runs left out and why
};

/// Fits the overhead correction and the MFU from measurements of the same GPU model and framework.
/// Refuses when no usable GPU run is given.
Result<CalibrationFit> fitCalibration(const std::vector<Measurement>& measurements, const Catalog& catalog);

/// The catalog GPU a CUDA device name refers to ("NVIDIA H100 80GB HBM3" -> h100-sxm), or nullptr.
const GpuSpec* matchGpuName(std::string_view deviceName, const Catalog& catalog);

} // namespace gpusizer::core
