#!/usr/bin/env bash
# A DPO run of Llama-3.1-8B with LoRA, written with OpenRLHF's option names before v0.10.2 (v0.10.1.post2 @ff481ecd,
# openrlhf/cli/train_dpo.py) in the heredoc its example scripts use; GPU Sizer's test of its OpenRLHF import.
set -x

read -r -d '' training_commands <<EOF2
openrlhf.cli.train_dpo \
   --save_path ./checkpoint/llama3-8b-dpo \
   --train_batch_size 256 \
   --micro_train_batch_size 2 \
   --pretrain meta-llama/Llama-3.1-8B-Instruct \
   --param_dtype bf16 \
   --max_epochs 1 \
   --max_len 2048 \
   --zero_stage 2 \
   --learning_rate 5e-7 \
   --beta 0.1 \
   --lora_rank 64 \
   --lora_alpha 128 \
   --target_modules q_proj k_proj v_proj o_proj \
   --attn_implementation flash_attention_2 \
   --gradient_checkpointing
EOF2

if [[ ${1} != "slurm" ]]; then
    deepspeed --module $training_commands
fi
