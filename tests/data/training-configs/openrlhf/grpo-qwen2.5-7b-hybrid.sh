#!/usr/bin/env bash
# A GRPO run of Qwen2.5-7B-Instruct on one node of 8 GPUs with OpenRLHF's hybrid engine, written with its v0.11
# option names (OpenRLHF/OpenRLHF @3c3be623, openrlhf/cli/train_ppo_ray.py); GPU Sizer's test of its OpenRLHF import.
set -x
MODEL=Qwen/Qwen2.5-7B-Instruct

ray job submit --address="http://127.0.0.1:8265" \
   -- python3 -m openrlhf.cli.train_ppo_ray \
   --ref.num_nodes 1 \
   --ref.num_gpus_per_node 8 \
   --actor.num_nodes 1 \
   --actor.num_gpus_per_node 8 \
   --vllm.num_engines 4 \
   --vllm.tensor_parallel_size 2 \
   --train.colocate_all \
   --vllm.gpu_memory_utilization 0.5 \
   --actor.model_name_or_path $MODEL \
   --reward.remote_url http://localhost:5000/get_reward \
   --train.micro_batch_size 4 \
   --train.batch_size 128 \
   --rollout.batch_size 128 \
   --rollout.n_samples_per_prompt 8 \
   --algo.advantage.estimator group_norm \
   --data.max_len 3072 \
   --rollout.max_new_tokens 2048 \
   --ds.zero_stage 3 \
   --ds.param_dtype bf16 \
   --actor.adam.lr 5e-7 \
   --algo.kl.init_coef 0.001 \
   --algo.kl.use_loss \
   --actor.gradient_checkpointing_enable \
   --ds.packing_samples \
   --vllm.enable_sleep \
   --ds.enable_sleep
