#!/usr/bin/env bash
# Regenerates every picture in docs/images from a build: each tab at 1920 x 1080 and 1024 x 700, light and dark,
# the Chinese window at both sizes, a model sized by the slider alone (size-only.json), and every page of the sample
# report (the Chinese report pages come from File › Export). Needs xvfb-run and pdftoppm (poppler-utils).
# Usage: scripts/screenshots.sh [build-dir]   (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
out=docs/images
tabs=(breakdown sequence fit compare plan advisor)
shot() { # geometry file extra-args...
    local geometry=$1 file=$2
    shift 2
    xvfb-run -a -s "-screen 0 ${geometry}x24" "$build/app/gpusizer" --screenshot "$out/$file" "$@" 2>/dev/null
}
for tab in "${tabs[@]}"; do
    shot 1920x1080 "explorer-$tab.png" --language en --palette light --tab "$tab"
    shot 1920x1080 "explorer-dark-$tab.png" --language en --palette dark --tab "$tab"
    shot 1024x700 "small-$tab.png" --language en --palette light --tab "$tab"
    shot 1024x700 "small-dark-$tab.png" --language en --palette dark --tab "$tab"
    shot 1920x1080 "zh_CN-$tab.png" --language zh_CN --palette light --tab "$tab"
    shot 1024x700 "zh_CN-small-$tab.png" --language zh_CN --palette dark --tab "$tab"
done
# The model as the size slider makes it: a long "derived from the size" label that must clip nothing.
for tab in breakdown plan; do
    shot 1024x700 "size-only-small-$tab.png" --language en --palette light --tab "$tab" --scenario "$out/size-only.json"
    shot 1920x1080 "size-only-$tab.png" --language en --palette dark --tab "$tab" --scenario "$out/size-only.json"
done
# GRPO with vLLM colocated on the training GPU: the Generation component and the advisor's sleep-mode rung.
shot 1920x1080 "grpo-breakdown.png" --language en --palette light --tab breakdown --scenario "$out/grpo.json"
shot 1024x700 "grpo-small-breakdown.png" --language en --palette dark --tab breakdown --scenario "$out/grpo.json"
shot 1920x1080 "grpo-advisor.png" --language en --palette light --tab advisor --scenario "$out/grpo-full.json"
shot 1024x700 "grpo-small-advisor.png" --language en --palette dark --tab advisor --scenario "$out/grpo-full.json"
# A vision-language model with two images per example: the encoder's share of the breakdown and the frozen-tower rung.
shot 1920x1080 "vlm-breakdown.png" --language en --palette light --tab breakdown --scenario "$out/vlm.json"
shot 1024x700 "vlm-small-breakdown.png" --language en --palette dark --tab breakdown --scenario "$out/vlm.json"
shot 1920x1080 "vlm-advisor.png" --language en --palette dark --tab advisor --scenario "$out/vlm-one-card.json"
# LoRA on every linear of the same model, the encoder's and the projector's too (lora.vision_targets).
shot 1920x1080 "vlm-lora-breakdown.png" --language en --palette light --tab breakdown --scenario "$out/vlm-lora.json"
# A run imported from its training configs: the window and the import report (import-<size>-report.png).
configs=tests/data/training-configs/transformers
shot 1920x1080 "import.png" --language en --palette light "$configs/sft_config.json" "$configs/adapter_config.json" \
    "$configs/accelerate_deepspeed.yaml"
shot 1024x700 "import-small.png" --language en --palette dark tests/data/training-configs/axolotl/olmo3-7b-qlora.yaml
scenario=tests/data/scenarios/llama31-8b-lora.json
"$build/app/gpusizer-cli" report "$scenario" -o docs/sample-report.pdf
rm -f "$out"/report-page-*.png
pdftoppm -r 60 -png docs/sample-report.pdf "$out/report-page"
# pdftoppm numbers pages with as many digits as the count needs; the README links report-page-N.png.
for f in "$out"/report-page-0*.png; do
    [[ -e $f ]] && mv "$f" "${f/-0/-}"
done
ls "$out"
