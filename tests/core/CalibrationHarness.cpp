#include "CalibrationHarness.h"

#include "gpusizer/memory/Estimate.h"
#include "gpusizer/plan/Planning.h"
#include "gpusizer/scenario/Catalog.h"
#include "gpusizer/scenario/ScenarioJson.h"
#include "gpusizer/scenario/Units.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <map>
#include <nlohmann/json.hpp>
#include <numeric>
#include <sstream>

namespace gpusizer::calibration {

using core::CalibrationRow;
using RowResult = core::CalibrationRow;

namespace {

std::string pct(double share) {
    std::ostringstream os;
    os << std::showpos << std::fixed << std::setprecision(1) << share * 100.0 << "%";
    return os.str();
}

std::string pctAbs(double share) {
    std::ostringstream os;
    os << std::fixed << std::setprecision(1) << share * 100.0 << "%";
    return os.str();
}

std::string num(double v) {
    std::ostringstream os;
    os << std::fixed << std::setprecision(2) << v;
    return os.str();
}

double coverage(const std::vector<const RowResult*>& rows) {
    if (rows.empty()) {
        return 0.0;
    }
    const auto inside = std::count_if(rows.begin(), rows.end(), [](const RowResult* r) { return r->inBand; });
    return static_cast<double>(inside) / static_cast<double>(rows.size());
}

void statsLine(std::ostringstream& md, const std::string& label, const std::vector<const RowResult*>& rows) {
    const core::ErrorStats s = core::errorStats(rows);
    md << "| " << label << " | " << s.count << " | " << pctAbs(s.meanAbs) << " | " << pctAbs(s.medianAbs) << " | "
       << pctAbs(s.maxAbs) << " | " << pct(s.meanSigned) << " | " << pctAbs(coverage(rows)) << " |\n";
}

const char* kStatsHeader = "| rows | n | mean abs error | median abs error | worst | mean signed | inside the band |\n"
                           "|---|---|---|---|---|---|---|\n";

void groupedStats(std::ostringstream& md, const std::vector<const RowResult*>& rows,
                  std::string (*key)(const RowResult&)) {
    std::map<std::string, std::vector<const RowResult*>> groups;
    for (const RowResult* r : rows) {
        groups[key(*r)].push_back(r);
    }
    md << kStatsHeader;
    for (const auto& [name, list] : groups) {
        statsLine(md, name, list);
    }
}

std::string bandTableSection(const std::vector<const RowResult*>& target, const core::LongSequenceBand& longBand) {
    std::ostringstream md;
    const auto table = core::deriveBandTable(target);
    std::vector<double> halfWidths;
    for (const RowResult* r : target) {
        halfWidths.push_back((r->bandHighGiB - r->bandLowGiB) / (2.0 * r->estimatedGiB));
    }
    std::sort(halfWidths.begin(), halfWidths.end());
    const double median = halfWidths.empty() ? 0.0 : halfWidths[halfWidths.size() / 2];
    md << "\n## The band\n\n"
          "The expected range shown next to every estimate is measured, not assumed. For each kind of run (framework "
          "named or not, method, one or several data-parallel GPUs) each side is the split-conformal order statistic "
          "of measured / estimated over the target rows of that kind: of n rows the ceil((n + 1) x 0.95)-th from that "
          "end (Lei et al., JASA 2018, section 2.2). From 39 rows on that holds a new run of the kind on each side "
          "with probability at least 95%; with up to 38 rows the rank is n, the extreme row, which a new run "
          "exceeds on a side with probability 1 / (n + 1) (8% at 11 rows), and every kind here has fewer. A kind "
          "with fewer than 8 rows, or with rows of one project only (the repository the publication belongs to: "
          "two tables of one project share its stack, harness and way of reading memory, one piece of evidence), "
          "takes the pooled rows of its method, then all rows. Each side is rounded up to a whole percent "
          "and never narrower than the 5% "
          "run-to-run noise. The rows of a framework-named kind are estimated with their framework profile; the "
          "generic kinds use the same rows estimated with the generic profile and no overrides, so a user who does "
          "not name the framework gets the wider band that its absence really costs. Size-only models widen it to "
          "25%. No side is shown beyond 40% (size-only models excepted): where a kind's measured spread is wider, "
          "as for several-GPU LoRA without a named framework, that spread is evidence too thin or too mixed to be a "
          "range, so the estimate shows 40% and a warning giving the measured spread and what narrows it (naming the "
          "framework, measuring a first step); the coverage figures below are of the band as shown. "
          "`core/memory/src/Band.cpp` holds the table; a test re-derives it from this report and fails when they "
          "differ.\n\n";
    md << "| framework named | method | GPUs | below | above | rows used |\n|---|---|---|---|---|---|\n";
    for (const auto& e : table) {
        md << "| " << (e.kind.frameworkNamed ? "yes" : "no") << " | " << core::toString(e.kind.method) << " | "
           << (e.kind.multiGpu ? "several" : "one") << " | -" << pctAbs(e.shares.down) << " | +" << pctAbs(e.shares.up)
           << " | " << e.rows << " |\n";
    }
    md << "\nThe target rows of at least " << core::kBandMinProjects << " projects reach "
       << static_cast<long long>(longBand.tokens)
       << " tokens per GPU in a micro-batch (micro-batch x sequence / context parallel; one project's rows are one "
          "piece of evidence, as for the classes). Beyond that the band's evidence stops, so a "
          "longer run takes at least the spread of the calibration rows that long, of any measure and not "
          "capacity-bound (the same order statistics: with up to 38 rows, the extremes): "
       << longBand.rows << " rows, -" << pctAbs(longBand.shares.down) << " / +" << pctAbs(longBand.shares.up) << ".\n";
    md << "\nOn the target rows the band holds the measured figure for " << pctAbs(coverage(target))
       << "; derived without each project's rows and tested on them (leave one project out) it holds for "
       << pctAbs(core::leaveOneProjectOutCoverage(target)) << ". Median half-width " << pctAbs(median) << ".\n";
    return md.str();
}

std::string h200Section(const std::vector<H200Row>& rows) {
    std::ostringstream md;
    md << "\n## Runs measured on an H200 with today's stack\n\n"
          "Twelve runs measured on one NVIDIA H200 on 2026-12-04 with PyTorch 2.11, transformers 5.17 and PEFT 0.21 "
          "(`tests/data/calibration/measured-h200.json`, a copy of the project's shared `calibration/h200` file; its "
          "`harness.py` is what ran: the model's own loss through `labels=`, the output dropped before backward, "
          "AdamW foreach unless fused is named, PEFT adapters in fp32 unless `lora.dtype` is bf16, non-reentrant "
          "checkpointing, equal-length batches without an attention mask). Each scenario is estimated as written, "
          "with `padded_batches` off (the harness passes no mask), on the `h200` card. None of these runs was used to "
          "derive the band, so its coverage here is coverage on runs it never saw. Step time: the median of the "
          "steps after the first, against the time model at the card's own utilisation (catalogs/gpus.json: 54% of the "
          "matmuls' peak, the HFU LLM Foundry published for the H100's GH100 die), its element-wise kernels and "
          "optimizer step at 4.8 TB/s (docs/planning.md, \"Step time\").\n\n";
    std::vector<double> alloc, resv, step;
    int inside = 0;
    for (const H200Row& r : rows) {
        alloc.push_back(std::abs(r.allocatedError()));
        resv.push_back(std::abs(r.reservedError()));
        step.push_back(std::abs(r.stepError()));
        inside += r.inBand() ? 1 : 0;
    }
    const auto mean = [](const std::vector<double>& v) {
        return v.empty() ? 0.0 : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
    };
    const auto worst = [](const std::vector<double>& v) {
        return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end());
    };
    md << "| figure | n | mean abs error | worst |\n|---|---|---|---|\n"
       << "| allocated peak | " << rows.size() << " | " << pctAbs(mean(alloc)) << " | " << pctAbs(worst(alloc))
       << " |\n"
       << "| reserved peak | " << rows.size() << " | " << pctAbs(mean(resv)) << " | " << pctAbs(worst(resv)) << " |\n"
       << "| step time | " << rows.size() << " | " << pctAbs(mean(step)) << " | " << pctAbs(worst(step)) << " |\n\n"
       << "The band holds the allocated peak for " << inside << " of " << rows.size() << " runs.\n\n"
       << "| run | allocated GiB | estimated | error | band GiB | reserved GiB | estimated | error | step s | "
          "estimated | error |\n|---|---|---|---|---|---|---|---|---|---|---|\n";
    for (const H200Row& r : rows) {
        md << "| " << r.id << " | " << num(r.allocatedGiB) << " | " << num(r.estAllocatedGiB) << " | "
           << pct(r.allocatedError()) << " | " << num(r.bandLowGiB) << "–" << num(r.bandHighGiB)
           << (r.inBand() ? "" : " (outside)") << " | " << num(r.reservedGiB) << " | " << num(r.estReservedGiB) << " | "
           << pct(r.reservedError()) << " | " << num(r.stepSeconds) << " | " << num(r.estStepSeconds) << " | "
           << pct(r.stepError()) << " |\n";
    }
    md << "\nThe reserved peaks of full fine-tuning with checkpointing run up to 40% above the allocated ones on this "
          "stack: the first optimizer step's AdamW states fill the segments step 0's loss made, so step 1's loss "
          "makes them again. The estimated reserved figure is PyTorch's caching allocator replayed over two steps of "
          "the run's allocations (`core/memory/src/AllocatorReplay.cpp`, docs/memory-model.md §6) for the ten runs "
          "whose "
          "step the trace follows; Gemma-2 (four norms per layer, soft-capped logits) and Mixtral (experts) keep the "
          "allocated peak plus 5%. The fit uses the allocated peak plus 5%: on a card without the replayed reserve "
          "the allocator frees its cached segments and retries.\n";
    return md.str();
}

} // namespace

std::string markdown(const core::CalibrationReport& report, const std::vector<H200Row>& h200) {
    std::ostringstream md;
    std::vector<const RowResult*> target;
    std::vector<const RowResult*> other;
    for (const auto& r : report.rows) {
        (r.target ? target : other).push_back(&r);
    }
    md << "# Accuracy against published measurements\n\n"
       << "Generated by `build/tests/core/gpusizer_accuracy_report > docs/accuracy.md` from "
          "`catalogs/calibration.json` (built by `scripts/make-calibration-scenarios.py` from the "
          "published rows in `tests/data/calibration/measured.json`, `measured-2.json` (the project's shared files) "
          "and "
          "`measured-3.json` (rows this project read from PEFT, torchtitan and ArcticTraining)). Each estimate is "
          "compared "
          "with the figure the "
          "source measured: `allocated` (torch max_memory_allocated / active bytes), `reserved` "
          "(max_memory_reserved) or `device` (nvidia-smi). No constant in the estimator was fitted to these rows.\n\n"
       << "**Target set**: rows with exact sequence lengths (exact, packed or padded to a known length) and a known "
          "measure. **Other rows**: the measure is unclear (Qwen README: 'G', method not stated — compared with "
          "device usage) or the sequence length is only an upper bound (real batches were shorter, so the estimate "
          "should be high; `max_length`: the trainer's maximum, batches padded to a longest the source does not "
          "give).\n\n";
    md << "## Summary\n\n" << kStatsHeader;
    statsLine(md, "**target set**", target);
    std::map<std::string, std::vector<const RowResult*>> byMethod;
    std::map<std::string, std::vector<const RowResult*>> byMeasure;
    for (const RowResult* r : target) {
        byMethod[r->method].push_back(r);
        byMeasure[r->measureKind].push_back(r);
    }
    for (const auto& [method, rows] : byMethod) {
        statsLine(md, "target, method " + method, rows);
    }
    for (const auto& [measure, rows] : byMeasure) {
        statsLine(md, "target, measure " + measure, rows);
    }
    statsLine(md, "other rows (unclear measure or upper-bound lengths)", other);
    std::map<std::string, std::vector<const RowResult*>> otherByMethod;
    for (const RowResult* r : other) {
        otherByMethod[r->method].push_back(r);
    }
    for (const auto& [method, rows] : otherByMethod) {
        statsLine(md, "other, method " + method, rows);
    }

    md << "\n## By source (target rows)\n\n";
    groupedStats(md, target, [](const RowResult& r) { return r.sourceKey; });
    md << "\n## By framework (target rows)\n\n";
    groupedStats(md, target, [](const RowResult& r) { return r.framework; });
    // Preference, RL and vision-language runs are published with upper-bound lengths only (measured-4.json): every
    // row, so that each run kind's error is stated, with the target set's share.
    std::vector<const RowResult*> all = target;
    all.insert(all.end(), other.begin(), other.end());
    md << "\n## By run kind (every row)\n\nThe published preference and vision-language runs state a maximum length, "
          "not the lengths their batches had, so they are not targets: an estimate at the maximum should be high. "
          "No published GRPO run states its prompt lengths and measure well enough to be re-created.\n\n";
    groupedStats(md, all, [](const RowResult& r) { return r.runKind; });
    md << bandTableSection(target, core::deriveLongSequenceBand(report.rows));
    md << h200Section(h200);

    auto worst = target;
    std::sort(worst.begin(), worst.end(),
              [](const RowResult* a, const RowResult* b) { return std::abs(a->errorShare) > std::abs(b->errorShare); });
    md << "\n## Worst rows of the target set\n\n| row | model | method | measured GiB | estimated GiB | error |\n"
          "|---|---|---|---|---|---|\n";
    for (std::size_t i = 0; i < std::min<std::size_t>(8, worst.size()); ++i) {
        const RowResult* r = worst[i];
        md << "| " << r->id << " | " << r->model << " | " << r->method << " | " << num(r->measuredGiB) << " | "
           << num(r->estimatedGiB) << " | " << pct(r->errorShare) << " |\n";
    }

    md << "\n### Why the worst rows miss\n\n"
          "- **peft-docs-ds-01** (DeepSpeed ZeRO-3, LoRA on Llama-2-70B, 8 x H100, -10.4%): the device figure is "
          "read off a W&B chart (NVML used / total, '64 GB (80%)': 80% of 81,559 MiB is 63.7 GiB). The model's "
          "allocated peak is 50.2 GiB: 16.1 GiB of bf16 partitions, 20 GiB of checkpointed layer inputs for 8 x 2048 "
          "tokens, one recomputed layer with every adapter's dropout copy and the inputs DeepSpeed's zero.Init linear "
          "wrapper keeps for frozen linears, what that layer's backward adds (the residual gradient and the MLP's "
          "operand gradients, 2 GiB), the 5e8-element IPG bucket accelerate's generated config leaves at DeepSpeed's "
          "default (0.93 GiB), and the 1.0e9 elements (1.88 GiB) DeepSpeed's coordinator keeps gathered with its "
          "default live-parameter limit and reuse distance. Beyond the reserve, NCCL's buffers: two communicators of "
          "24 channels with NVLink SHARP on the H100 node, 3.38 GiB. Not modelled: this 2024 stack's NCCL 2.19 sized "
          "NVLink SHARP at 1,536 MiB a communicator against 2.21's 1,152 (0.75 GiB more over the two), and the "
          "fragmentation of per-module gathers. The row stays just outside the band.\n"
          "- **answerai-fsdpqlora-01/07/15** (reserved, -18% to -24%): FSDP1 with every adapter matrix in its own "
          "unit. The allocated peaks the same source gives for two of its runs (04, 06) are within 6%; their reserved "
          "figures are 12% and 24% above allocated, while the model reserves 5% slack plus the blocks the unshard "
          "stream caches. The rows at 85% of the card or more (08, 10-14, 16-19) are capacity-bound and not targets.\n"
          "- **torchtitan-h100-04** (reserved, -10.6%; the other torchtitan rows -2% to -9%): the loss is sized from "
          "torchtitan's code at 9dec370, cross_entropy(pred.float()) with `del pred` before backward, 12 B per logit "
          "element at its peak (the H200 runs, whose allocated peaks are within 1% where the logits dominate, measure "
          "the same 12 B for transformers' loss). What the reserved figures hold beyond that is the caching "
          "allocator's: blocks cached around the 8 GiB fp32 logit tensors and the recomputed layers, up to 40% above "
          "the allocated peak for full fine-tuning with checkpointing on the H200 runs, which the estimate does not "
          "model yet (it adds 5%).\n"
          "- **litgpt-resource-23/24** (phi-1.5 under FSDP, +14%/+18%): the measured cost of each extra sample is "
          "about "
          "half of what the single-GPU rows of the same table show for the same model (fp32 logits held by Fabric); "
          "under FSDP it is not explained yet. The single-GPU LitGPT rows, which were 7-24% low, are within 3% since "
          "Fabric's fp32 output, LitGPT's fused qkv and its zero-padded LoRA were modelled from the source.\n"
          "- **hf-perf-train-gpu-one-06..09** (BERT, 2022, up to 11% low): an encoder sized with the decoder's "
          "itemisation and the 2022 allocator; the CUDA context is the source's own measurement.\n"
          "- **Other rows**: runs whose sequences were only an upper bound (torchtune-readme2405, "
          "torchtune-flags-01: real batches were shorter, so the estimate is high, as it should be); Qwen rows whose "
          "measure is not stated (mostly low, more so at long sequences); torchtune's September 2024 table, which "
          "names the allocator but not the counter (compared with the allocated peak); Axolotl README figures "
          "('about X GiB VRAM', how it was read not stated); ArcticTraining's long-sequence recipes (alst-*, "
          "Ulysses, TiledMLP, checkpoint offload, 32,000 to 15,000,000 tokens, sequences packed up to the length): "
          "-2% to -49% before a layer's backward was modelled (the residual gradient and FlashAttention's dq, dk, "
          "dv and fp32 accumulator, which at 1.2 M tokens are tens of GB) and before Ulysses' replication of "
          "key/value heads over more ranks than heads (ulysses_sp.py), -11% to +16% since (with ZeRO-3's coordinator "
          "and NCCL's buffers: three communicators on the multi-node rows, network buffers not counted). Still open "
          "there: "
          "FlashAttention-3 on the H200 rows (its backward accumulates dk and dv per key/value head in fp32 instead "
          "of expanding them) and ArcticTraining's offload keeping one layer input on the GPU where the model keeps "
          "two: at alst-05's 1.2 M tokens each is about 9 GiB, which is how high that row is.\n";

    md << "\n## Every row\n\nA row near the card's capacity (reserved or device at 85% of it or more) is "
          "marked *capacity*: PyTorch's caching allocator returns cached blocks only when an allocation fails, so "
          "such a figure is bounded by the card rather than by the run; it is compared but not in the target "
          "set.\n\n| row | model | method | measure → compared | seq | target | measured GiB | estimated GiB | "
          "band GiB | error |\n|---|---|---|---|---|---|---|---|---|---|\n";
    for (const auto& r : report.rows) {
        md << "| " << r.id << " | " << r.model << " | " << r.method << " | " << r.measureKind << " → " << r.compare
           << " | " << r.seqLenKind << " | " << (r.target ? "yes" : (r.capacityBound ? "no (capacity)" : "no")) << " | "
           << num(r.measuredGiB) << " | " << num(r.estimatedGiB) << " | " << num(r.bandLowGiB) << "–"
           << num(r.bandHighGiB) << (r.inBand ? "" : " (outside)") << " | " << pct(r.errorShare) << " |\n";
    }
    md << "\n## Rows left out\n\n| row | why |\n|---|---|\n";
    for (const auto& x : report.excluded) {
        md << "| " << x.id << " | " << x.reason << " |\n";
    }
    md << "\n## How each source was read\n\n";
    std::map<std::string, std::string> seen;
    for (const auto& r : report.rows) {
        const std::string key = r.id.substr(0, r.id.find_last_of('-'));
        if (seen.count(key)) {
            continue;
        }
        std::string text;
        for (const auto& i : r.interpretation) {
            text += (text.empty() ? "" : "; ") + i;
        }
        seen[key] = text;
        md << "- **" << key << "** (" << r.source << "): " << text << ".\n";
    }
    return md.str();
}

std::string bandTableSource(const core::CalibrationReport& report) {
    std::ostringstream out;
    out << std::fixed << std::setprecision(2);
    for (const auto& e : core::deriveBandTable(report.targetRows())) {
        out << "    {{" << (e.kind.frameworkNamed ? "true, " : "false,") << " Method::"
            << (e.kind.method == core::Method::Full   ? "Full, "
                : e.kind.method == core::Method::Lora ? "Lora, "
                                                      : "Qlora,")
            << " " << (e.kind.multiGpu ? "true} " : "false}") << ", {" << e.shares.down << ", " << e.shares.up << "}, "
            << e.rows << "},\n";
    }
    const core::LongSequenceBand lb = core::deriveLongSequenceBand(report.rows);
    out << std::setprecision(0) << "constexpr LongSequenceBand kLongSequence{" << lb.tokens << ", {"
        << std::setprecision(2) << lb.shares.down << ", " << lb.shares.up << "}, " << lb.rows << "};\n";
    return out.str();
}

core::Result<std::vector<H200Row>> runH200(std::string_view json, const core::Catalog& catalog) {
    const auto doc = nlohmann::json::parse(json, nullptr, false);
    if (!doc.is_array()) {
        return core::fail(core::ErrorCode::WrongFormat, core::Words("a list of runs"), "measured-h200.json");
    }
    const core::GpuSpec* h200 = catalog.findGpu("h200");
    if (h200 == nullptr) {
        return core::fail(core::ErrorCode::UnknownId, core::Words("no h200 in the GPU catalog"), "h200");
    }
    constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
    std::vector<H200Row> rows;
    for (const auto& run : doc) {
        H200Row r;
        r.id = run.at("id").get<std::string>();
        auto parsed = core::parseScenario(run.at("scenario").dump(), r.id, catalog);
        if (!parsed) {
            return tl::unexpected(parsed.error());
        }
        core::Scenario s = parsed->scenario;
        core::placeOnCard(s, *h200);
        // harness.py calls model(input_ids=x, labels=x) on equal-length random tokens: no attention mask.
        s.paddedBatches = false;
        const auto& measured = run.at("measured");
        r.allocatedGiB = measured.at("allocated_peak_bytes").get<double>() / kGiB;
        r.reservedGiB = measured.at("reserved_peak_bytes").get<double>() / kGiB;
        std::vector<double> steps = measured.at("step_seconds").get<std::vector<double>>();
        steps.erase(steps.begin()); // the first step includes warm-up
        std::sort(steps.begin(), steps.end());
        r.stepSeconds = steps.empty() ? 0.0 : steps[steps.size() / 2];
        const core::Estimate e = core::estimate(s);
        r.estAllocatedGiB = static_cast<double>(e.allocatedPeakBytes) / kGiB;
        r.estReservedGiB = static_cast<double>(e.measuredReservedBytes()) / kGiB;
        r.bandLowGiB = r.estAllocatedGiB * (1.0 - e.bandDownShare);
        r.bandHighGiB = r.estAllocatedGiB * (1.0 + e.bandUpShare);
        r.estStepSeconds = core::stepTime(s, *h200, core::PlanInputs{}, e).stepSeconds;
        rows.push_back(r);
    }
    return rows;
}

} // namespace gpusizer::calibration
