#include "gpusizer/core/Accuracy.h"

#include "JsonRead.h"
#include "gpusizer/core/Catalog.h"
#include "gpusizer/core/Estimate.h"
#include "gpusizer/core/ScenarioJson.h"
#include "gpusizer/core/Units.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace gpusizer::core {

using nlohmann::json;

std::vector<const CalibrationRow*> CalibrationReport::targetRows() const {
    std::vector<const CalibrationRow*> out;
    for (const auto& r : rows) {
        if (r.target) {
            out.push_back(&r);
        }
    }
    return out;
}

ErrorStats errorStats(const std::vector<const CalibrationRow*>& rows) {
    ErrorStats s;
    s.count = rows.size();
    if (rows.empty()) {
        return s;
    }
    std::vector<double> abs;
    for (const CalibrationRow* r : rows) {
        abs.push_back(std::abs(r->errorShare));
        s.meanSigned += r->errorShare;
    }
    std::sort(abs.begin(), abs.end());
    s.meanAbs = std::accumulate(abs.begin(), abs.end(), 0.0) / static_cast<double>(abs.size());
    s.medianAbs = abs.size() % 2 == 1 ? abs[abs.size() / 2] : 0.5 * (abs[abs.size() / 2 - 1] + abs[abs.size() / 2]);
    s.maxAbs = abs.back();
    s.meanSigned /= static_cast<double>(rows.size());
    return s;
}

Result<CalibrationReport> runCalibration(std::string_view calibrationJson) {
    GPUSIZER_ASSIGN(json doc, detail::parseDocument(calibrationJson, "calibration.json"));
    if (!doc.is_object() || !doc.contains("rows") || !doc["rows"].is_array()) {
        return fail(ErrorCode::WrongFormat, "'rows' must be an array", "calibration.json");
    }
    CalibrationReport report;
    const Catalog emptyCatalog; // rows carry their architectures inline
    try {
        for (const json& row : doc["rows"]) {
            if (row.contains("excluded")) {
                report.excluded.push_back({row.at("id").get<std::string>(), row.at("excluded").get<std::string>()});
                continue;
            }
            CalibrationRow r;
            r.id = row.at("id").get<std::string>();
            r.model = row.at("model").get<std::string>();
            r.method = row.at("method").get<std::string>();
            r.measureKind = row.at("measure_kind").get<std::string>();
            r.compare = row.at("compare").get<std::string>();
            r.seqLenKind = row.at("seq_len_kind").get<std::string>();
            r.target = row.at("target").get<bool>();
            r.source = row.at("source").get<std::string>();
            r.interpretation = row.at("interpretation").get<std::vector<std::string>>();
            r.measuredGiB = row.at("measured_gib").get<double>() / row.at("per_gpu_divisor").get<double>();
            const std::string scenario = row.at("scenario").dump();
            GPUSIZER_ASSIGN(auto parsed, parseScenario(scenario, r.id, emptyCatalog));
            const Estimate e = estimate(parsed.scenario);
            const std::int64_t bytes = r.compare == "allocated"  ? e.allocatedPeakBytes
                                       : r.compare == "reserved" ? e.reservedPeakBytes
                                                                 : e.deviceBytes;
            r.estimatedGiB = toGiB(static_cast<double>(bytes));
            r.errorShare = (r.estimatedGiB - r.measuredGiB) / r.measuredGiB;
            report.rows.push_back(std::move(r));
        }
    } catch (const json::exception& ex) {
        return fail(ErrorCode::WrongType, std::string("malformed calibration row: ") + ex.what(), "calibration.json");
    }
    return report;
}

} // namespace gpusizer::core
