<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>BreakdownView</name>
    <message>
        <source>%1 (%2 GiB)</source>
        <translation>%1（%2 GiB）</translation>
    </message>
</context>
<context>
    <name>Format</name>
    <message>
        <source>Weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>Optimizer states</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <source>Activations</source>
        <translation>激活值</translation>
    </message>
    <message>
        <source>Logits &amp; loss</source>
        <translation>logits 与损失</translation>
    </message>
    <message>
        <source>Transient</source>
        <translation>临时缓冲</translation>
    </message>
    <message>
        <source>Overhead</source>
        <translation>开销</translation>
    </message>
    <message>
        <source>Model parameters as stored on the GPU (16/32-bit or quantized).</source>
        <translation>模型参数在 GPU 上的存储形式（16/32 位或量化）。</translation>
    </message>
    <message>
        <source>One gradient per trainable parameter, alive at the peak moment.</source>
        <translation>每个可训练参数对应一个梯度，在峰值时刻仍然存活。</translation>
    </message>
    <message>
        <source>Optimizer moments plus fp32 master weights where the recipe keeps them.</source>
        <translation>优化器动量；若训练配方保留 fp32 主权重副本，也计入其中。</translation>
    </message>
    <message>
        <source>Tensors saved for backward; grow with batch × sequence × layers.</source>
        <translation>为反向传播保存的张量；随批次 × 序列 × 层数增长。</translation>
    </message>
    <message>
        <source>Batch × sequence × vocabulary logits, their fp32 upcast and gradient.</source>
        <translation>批次 × 序列 × 词表大小的 logits，以及其 fp32 上转换副本和梯度。</translation>
    </message>
    <message>
        <source>Short-lived buffers: gathered shards, dequantized weights, step temporaries.</source>
        <translation>短期存在的缓冲区：聚合后的分片、反量化后的权重、优化步骤中的临时张量。</translation>
    </message>
    <message>
        <source>CUDA context, allocator reserve and communication buffers.</source>
        <translation>CUDA 上下文、分配器预留和通信缓冲区。</translation>
    </message>
    <message>
        <source>Generation</source>
        <translation>生成</translation>
    </message>
    <message>
        <source>GRPO&apos;s generation on the training GPUs: vLLM&apos;s share of memory (colocate), or transformers&apos; KV cache.</source>
        <translation>GRPO 在训练 GPU 上的生成：vLLM 占用的显存份额（同置模式），或 transformers 的 KV 缓存。</translation>
    </message>
</context>
<context>
    <name>PdfExporter</name>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Cannot start a PDF in %1</source>
        <translation>无法在 %1 中创建 PDF</translation>
    </message>
    <message>
        <source>Page %1 of %2</source>
        <translation>第 %1 页，共 %2 页</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>Unsaved changes</source>
        <translation>未保存的更改</translation>
    </message>
</context>
<context>
    <name>ReportBuilder</name>
    <message>
        <source>size-derived model</source>
        <translation>按参数规模推导的模型</translation>
    </message>
    <message>
        <source>GPU sizing report</source>
        <translation>GPU 选型报告</translation>
    </message>
    <message>
        <source>Scenario: %1 · generated %2 · GPU Sizer %3</source>
        <translation>场景：%1 · 生成于 %2 · GPU Sizer %3</translation>
    </message>
    <message>
        <source>Memory is in GiB (2³⁰ bytes), per GPU unless labelled total. Vendor capacities (&quot;80 GB&quot;) are shown as stated, next to the usable GiB a training process sees.</source>
        <translation>显存单位为 GiB（2³⁰ 字节），除标注为总计者外均为每 GPU 的值。厂商标称容量（&quot;80 GB&quot;）按原样显示，旁边列出训练进程实际可用的 GiB。</translation>
    </message>
    <message>
        <source>1. Inputs</source>
        <translation>1. 输入</translation>
    </message>
    <message>
        <source>2. Memory per GPU</source>
        <translation>2. 每 GPU 显存</translation>
    </message>
    <message>
        <source>Each of %1 GPUs</source>
        <translation>每个 GPU（共 %1 个）</translation>
    </message>
    <message>
        <source>Per GPU</source>
        <translation>每 GPU</translation>
    </message>
    <message>
        <source>Allocated peak %1: what torch.cuda.max_memory_allocated() reports — live tensors at the peak moment (%2).</source>
        <translation>已分配峰值 %1：即 torch.cuda.max_memory_allocated() 报告的值——峰值时刻存活的张量（%2）。</translation>
    </message>
    <message>
        <source>Device %1: what nvidia-smi shows — reserved plus the CUDA context, communication buffers and paged optimizer states. Fit decisions use this figure.</source>
        <translation>设备显存 %1：即 nvidia-smi 显示的值——已保留显存加上 CUDA 上下文、通信缓冲区和分页优化器状态。是否放得下以此数值为准。</translation>
    </message>
    <message>
        <source>Measured runs of this scenario (the GPU Sizer measurement script):</source>
        <translation>本场景的实测运行（GPU Sizer 测量脚本）：</translation>
    </message>
    <message>
        <source>3. Memory per GPU against sequence length</source>
        <translation>3. 每 GPU 显存随序列长度的变化</translation>
    </message>
    <message>
        <source>Device memory per GPU at micro-batch %1, everything else as in the inputs; dashed lines are usable capacities; the red dot is the current length.</source>
        <translation>微批次为 %1、其余设置均与输入相同时的每 GPU 设备显存；虚线为可用容量；红点为当前长度。</translation>
    </message>
    <message>
        <source>4. Which GPUs fit</source>
        <translation>4. 哪些 GPU 放得下</translation>
    </message>
    <message>
        <source>Your layout (%1 GPU(s) as set, %2 per GPU) on each card, with the %3 margin the estimate&apos;s band asks for: green fits; amber tight (only the estimate fits) or fits with the planner&apos;s layout; red nothing fits up to %4 cards. Best on this card is what the planner would rent there (objective: %5). Max batch (micro-batch) and sequence are on one card, with the margin.</source>
        <translation>你的并行布局（按设置为 %1 个 GPU，每 GPU %2）在各型号 GPU 上的情况，并留出估算值预期范围所要求的 %3 余量：绿色表示放得下；琥珀色表示偏紧（仅估算值放得下）或采用规划器的并行布局才放得下；红色表示最多 %4 张卡都放不下。“本卡最佳”是规划器在该卡上会租用的配置（目标：%5）。最大批次（微批次）和最大序列长度均按单卡计算，并已计入余量。</translation>
    </message>
    <message>
        <source>5. Full fine-tuning, LoRA and QLoRA side by side</source>
        <translation>5. 全参数微调、LoRA 与 QLoRA 对比</translation>
    </message>
    <message>
        <source>Scaling with ZeRO-3 on A100-class cards, same batch per GPU: 2 / 4 / 8 cards give %1× / %2× / %3× the throughput over PCIe and %4× / %5× / %6× over NVLink.</source>
        <translation>在 A100 级别的卡上使用 ZeRO-3、每 GPU 批次相同时的扩展性：2 / 4 / 8 张卡通过 PCIe 可获得 %1× / %2× / %3× 的吞吐量，通过 NVLink 可获得 %4× / %5× / %6×。</translation>
    </message>
    <message>
        <source>6. Cards, time and cost</source>
        <translation>6. GPU 数量、时间与成本</translation>
    </message>
    <message>
        <source>7. If it does not fit: fixes in order of cost</source>
        <translation>7. 如果放不下：按代价排序的解决办法</translation>
    </message>
    <message>
        <source>%1. Each fix alone, with the memory it saves for this scenario (the difference of two estimates) and its price:</source>
        <translation>%1。每个解决办法单独应用时为本场景节省的显存（两次估算之差）及其代价：</translation>
    </message>
    <message>
        <source>8. Choosing the method</source>
        <translation>8. 选择方法</translation>
    </message>
    <message>
        <source>close to</source>
        <translation>接近</translation>
    </message>
    <message>
        <source>somewhat different from</source>
        <translation>有所不同</translation>
    </message>
    <message>
        <source>far from</source>
        <translation>相差甚远</translation>
    </message>
    <message>
        <source>small</source>
        <translation>小</translation>
    </message>
    <message>
        <source>medium</source>
        <translation>中等</translation>
    </message>
    <message>
        <source>large</source>
        <translation>大</translation>
    </message>
    <message>
        <source>Answers: the task is %1 what the model already does; %2 data; a small quality trade-off for a large cost cut is %3; served %4.</source>
        <translation>回答：任务与模型现有能力%1；数据量%2；以少量质量损失换取大幅降低成本%3；%4部署。</translation>
    </message>
    <message>
        <source>acceptable</source>
        <translation>可以接受</translation>
    </message>
    <message>
        <source>not acceptable</source>
        <translation>不可接受</translation>
    </message>
    <message>
        <source>merged</source>
        <translation>合并后</translation>
    </message>
    <message>
        <source>as adapters</source>
        <translation>以适配器形式</translation>
    </message>
    <message>
        <source>9. Sizing table</source>
        <translation>9. 选型表</translation>
    </message>
    <message>
        <source>%1 %2 (%3 runs)</source>
        <translation>%1 %2（%3 次运行）</translation>
    </message>
    <message>
        <source>Measured accuracy: against %1 published runs with exact sequence lengths and a known measure, the mean absolute error is %2 (median %3, worst %4); by method: %5. Details per run in docs/accuracy.md; run-to-run noise of the same configuration is 5–10%.</source>
        <translation>实测准确度：对照 %1 个已发表的运行（序列长度确切、测量方式已知），平均绝对误差为 %2（中位数 %3，最差 %4）；按方法：%5。各次运行的详情见 docs/accuracy.md；同一配置多次运行之间的噪声为 5–10%。</translation>
    </message>
    <message>
        <source>10. Assumptions, formulas and measured accuracy</source>
        <translation>10. 假设、公式与实测准确度</translation>
    </message>
    <message>
        <source>Weights, gradients and optimizer states: bytes per parameter by precision recipe (bf16: 2 + 2 + 4 with AdamW; bf16 with fp32 master: 2 + 2 + 4 + 8; AMP: 4 + 4 + 8); LoRA trains r·(in + out) per adapted linear (Hu et al. 2021); NF4 stores 0.5 B per weight plus block constants (Dettmers et al. 2023).</source>
        <translation>权重、梯度和优化器状态：按精度方案计算每个参数的字节数（bf16：使用 AdamW 时为 2 + 2 + 4；bf16 加 fp32 主权重副本：2 + 2 + 4 + 8；AMP：4 + 4 + 8）；LoRA 为每个被适配的线性层训练 r·(in + out) 个参数（Hu et al. 2021）；NF4 每个权重存储 0.5 B，外加分块常数（Dettmers et al. 2023）。</translation>
    </message>
    <message>
        <source>Sharding: ZeRO-1/2/3 divide optimizer states, gradients and weights by the data-parallel degree (Rajbhandari et al. 2020); activations are never sharded by ZeRO/FSDP.</source>
        <translation>分片：ZeRO-1/2/3 将优化器状态、梯度和权重按数据并行度切分（Rajbhandari et al. 2020）；ZeRO/FSDP 从不对激活值进行分片。</translation>
    </message>
    <message>
        <source>Activations: the tensors autograd saves per layer, itemised after Korthikanti et al. 2022, with full checkpointing keeping one tensor per layer; eager attention adds seq² scores.</source>
        <translation>激活值：autograd 每层保存的张量，参照 Korthikanti et al. 2022 逐项计算；完全激活检查点每层只保留一个张量；eager 注意力还会额外存储 seq² 个分数。</translation>
    </message>
    <message>
        <source>Logits: batch × sequence × vocabulary elements, 14 B each with a standard fp32-upcast cross-entropy, about 2–3 B with a chunked one.</source>
        <translation>Logits：批次 × 序列 × 词表个元素，使用标准的 fp32 上转换交叉熵时每个元素 14 B，使用分块交叉熵时约 2–3 B。</translation>
    </message>
    <message>
        <source>Peak: the largest of forward end (with the logits), the last layer&apos;s recompute (checkpointing; the logits are freed by then), backward end and optimizer step; device = allocated + allocator reserve (5%, 15% when sharded) + CUDA context + communication buffers.</source>
        <translation>峰值：取前向结束（含 logits）、最后一层的重计算（激活检查点；此时 logits 已释放）、反向结束和优化器步骤中的最大者；设备显存 = 已分配 + 分配器预留（5%，分片时为 15%）+ CUDA 上下文 + 通信缓冲区。</translation>
    </message>
    <message>
        <source>References: Korthikanti et al., Reducing Activation Recomputation in Large Transformer Models (2022); Rajbhandari et al., ZeRO (2020); Dettmers et al., QLoRA (2023); Hu et al., LoRA (2021); PyTorch CUDA-semantics, DDP and FSDP documentation; DeepSpeed configuration documentation. GPU specifications: vendor datasheets cited in the catalog; prices are illustrative.</source>
        <translation>参考文献：Korthikanti et al., Reducing Activation Recomputation in Large Transformer Models (2022)；Rajbhandari et al., ZeRO (2020)；Dettmers et al., QLoRA (2023)；Hu et al., LoRA (2021)；PyTorch CUDA 语义、DDP 和 FSDP 文档；DeepSpeed 配置文档。GPU 规格：目录中引用的厂商数据手册；价格仅供参考。</translation>
    </message>
    <message>
        <source>%1, %2, %3 tokens × %4 per GPU%5: %6 per GPU on the device (nvidia-smi; expected %7 – %8)</source>
        <translation>%1，%2，%3 个 token × 每 GPU %4%5：每 GPU 设备显存 %6（nvidia-smi；预期 %7 – %8）</translation>
    </message>
    <message>
        <source> on %1 GPUs (%2)</source>
        <translation> 使用 %1 个 GPU（%2）</translation>
    </message>
    <message>
        <source>, %1 in total across the %2 GPUs</source>
        <translation>，%2 个 GPU 合计 %1</translation>
    </message>
    <message>
        <source>The whole bill on %1 (%2):</source>
        <translation>%1 上的全部账单（%2）：</translation>
    </message>
    <message>
        <source>When the run is done, in this order (only destroying the instance ends the bill):</source>
        <translation>训练完成后，按此顺序操作（只有销毁实例才会结束计费）：</translation>
    </message>
    <message>
        <source>%1 × %2 epochs; %3. For every GPU that fits, the count and layout the planner chose (%4), cheapest first; %5 of %6 catalog GPUs fit up to %7 cards. Wall time and cost include the start-up and the final copy; cost is at on-demand prices, Spot at spot prices; both illustrative.</source>
        <translation>%1 × %2 轮；%3。对每个放得下的 GPU，列出规划器选择的数量与并行布局（%4），按成本从低到高排列；目录中 %6 个 GPU 里有 %5 个在最多 %7 张卡时放得下。墙钟时间和成本包含启动与最终复制；成本按按需价格计算，竞价列按竞价价格计算；均仅供参考。</translation>
    </message>
    <message>
        <source>Reserved peak %1: the allocated peak plus the caching allocator&apos;s block slack, which the device figure below builds on. torch.cuda.max_memory_reserved() reports %2 on a card with room: the allocator keeps freed blocks cached and returns them only when a new segment would not fit.</source>
        <translation>已保留峰值 %1：已分配峰值加上缓存分配器的块余量，下面的设备显存数值以此为基础。在显存充裕的卡上 torch.cuda.max_memory_reserved() 报告 %2：分配器会缓存已释放的块，只有在新段放不下时才归还。</translation>
    </message>
    <message>
        <source>HFU %1% on every card (as set)</source>
        <translation>所有显卡的 HFU 均为 %1%（按设置）</translation>
    </message>
    <message>
        <source>each card&apos;s published HFU, 25% where none is published</source>
        <translation>各显卡已发表的 HFU，无发表数据时取 25%</translation>
    </message>
</context>
<context>
    <name>ScenarioFile</name>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <source>%1

%2</source>
        <translation>%1

%2</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
</context>
<context>
    <name>Startup</name>
    <message>
        <source>Plans GPU memory, fit, time and cost for LLM fine-tuning.</source>
        <translation>规划 LLM 微调所需的 GPU 显存、GPU 适配、时间和成本。</translation>
    </message>
    <message>
        <source>Save the window as PNG to &lt;file&gt;, then quit.</source>
        <translation>将窗口保存为 PNG 文件 &lt;file&gt;，然后退出。</translation>
    </message>
    <message>
        <source>Open the scenario JSON &lt;file&gt;.</source>
        <translation>打开场景 JSON 文件 &lt;file&gt;。</translation>
    </message>
    <message>
        <source>Show the view &lt;name&gt;.</source>
        <translation>显示视图 &lt;name&gt;。</translation>
    </message>
    <message>
        <source>Colour palette: light, dark (default: the desktop&apos;s).</source>
        <translation>配色方案：light 或 dark（默认：跟随桌面）。</translation>
    </message>
    <message>
        <source>Language: en, zh_CN (default: View › Language, else the system&apos;s).</source>
        <translation>界面语言：en、zh_CN（默认：视图 › 语言中的选择，否则跟随系统）。</translation>
    </message>
    <message>
        <source>A scenario, a config.json, or the training configs of one run to import (Axolotl, LLaMA-Factory, torchtune, transformers / TRL, PEFT, accelerate, DeepSpeed, LitGPT).</source>
        <translation>要导入的场景、config.json，或同一次运行的训练配置（Axolotl，LLaMA-Factory，torchtune，transformers / TRL，PEFT，accelerate，DeepSpeed，LitGPT）。</translation>
    </message>
</context>
<context>
    <name>gpusizer</name>
    <message>
        <source>cannot open the file: %1</source>
        <translation>无法打开文件：%1</translation>
    </message>
    <message>
        <source>no such file</source>
        <translation>文件不存在</translation>
    </message>
    <message>
        <source>is a folder, not a file</source>
        <translation>是文件夹，不是文件</translation>
    </message>
    <message>
        <source>is not a regular file</source>
        <translation>不是常规文件</translation>
    </message>
    <message>
        <source>is larger than the %1 a document may have</source>
        <translation>超过了文档允许的大小上限 %1</translation>
    </message>
    <message>
        <source>cannot read the file</source>
        <translation>无法读取文件</translation>
    </message>
    <message>
        <source>cannot follow the link: %1</source>
        <translation>无法解析链接：%1</translation>
    </message>
    <message>
        <source>cannot create the file: %1</source>
        <translation>无法创建文件：%1</translation>
    </message>
    <message>
        <source>cannot write the file: %1</source>
        <translation>无法写入文件：%1</translation>
    </message>
    <message>
        <source>cannot replace the file: %1</source>
        <translation>无法替换文件：%1</translation>
    </message>
    <message>
        <source>&apos;rows&apos; must be an array</source>
        <translation>&apos;rows&apos; 必须是数组</translation>
    </message>
    <message>
        <source>malformed calibration row: %1</source>
        <translation>校准行格式错误：%1</translation>
    </message>
    <message>
        <source>required field &apos;sources&apos; is missing (cite every spec)</source>
        <translation>缺少必填字段 &apos;sources&apos;（每项规格都须注明出处）</translation>
    </message>
    <message>
        <source>&apos;sources&apos; must be a non-empty array of strings</source>
        <translation>&apos;sources&apos; 必须是非空的字符串数组</translation>
    </message>
    <message>
        <source>&apos;sources&apos; must hold non-empty strings</source>
        <translation>&apos;sources&apos; 中的元素必须是非空字符串</translation>
    </message>
    <message>
        <source>unknown field &apos;%1&apos;</source>
        <translation>未知字段 &apos;%1&apos;</translation>
    </message>
    <message>
        <source>&apos;usable_gib&apos; cannot exceed &apos;memory_gib&apos;</source>
        <translation>&apos;usable_gib&apos; 不能超过 &apos;memory_gib&apos;</translation>
    </message>
    <message>
        <source>&apos;link&apos; must be one of none, pcie, nvlink2-5, infinity-fabric, gaudi-roce</source>
        <translation>&apos;link&apos; 必须是 none, pcie, nvlink2-5, infinity-fabric, gaudi-roce 之一</translation>
    </message>
    <message>
        <source>&apos;config&apos; must be an object of config.json keys</source>
        <translation>&apos;config&apos; 必须是由 config.json 键组成的对象</translation>
    </message>
    <message>
        <source>a catalog must be a JSON object</source>
        <translation>目录必须是 JSON 对象</translation>
    </message>
    <message>
        <source>schemaVersion %1 is newer than this GPU Sizer reads (%2)</source>
        <translation>schemaVersion %1 高于此版本 GPU Sizer 可读取的版本（%2）</translation>
    </message>
    <message>
        <source>&apos;%1&apos; must be an array</source>
        <translation>&apos;%1&apos; 必须是数组</translation>
    </message>
    <message>
        <source>an entry must be an object</source>
        <translation>条目必须是对象</translation>
    </message>
    <message>
        <source>&apos;id&apos; must be lower-case letters, digits, &apos;-&apos;, &apos;.&apos;, &apos;_&apos; (1-80 chars)</source>
        <translation>&apos;id&apos; 只能由小写字母、数字以及 &apos;-&apos;, &apos;.&apos;, &apos;_&apos; 组成（1-80 个字符）</translation>
    </message>
    <message>
        <source>id &apos;%1&apos; appears more than once</source>
        <translation>id &apos;%1&apos; 出现了多次</translation>
    </message>
    <message>
        <source>The architecture was derived from the parameter count alone; expect ±25%.</source>
        <translation>架构仅根据参数量推导；误差约为 ±25%。</translation>
    </message>
    <message>
        <source>Activations and logits are sized for the sequence length set: use your longest sequence (or packing length), not the average.</source>
        <translation>激活值和 logits 按所设的序列长度估算：请使用最长序列（或打包长度），而不是平均长度。</translation>
    </message>
    <message>
        <source>Merge a QLoRA adapter into the 16-bit base model, not into the 4-bit one.</source>
        <translation>请将 QLoRA 适配器合并到 16 位基础模型中，而不是 4 位模型中。</translation>
    </message>
    <message>
        <source>Eager attention stores seq_len² scores per head: use SDPA or FlashAttention.</source>
        <translation>eager 注意力为每个头存储 seq_len² 个分数：请使用 SDPA 或 FlashAttention。</translation>
    </message>
    <message>
        <source>This model soft-caps attention logits; SDPA ignores the cap (transformers recommends eager attention, or flash-attention &gt;= 2.6).</source>
        <translation>该模型对注意力 logits 进行软截断（soft-cap）；SDPA 会忽略该上限（transformers 建议使用 eager 注意力或 flash-attention &gt;= 2.6）。</translation>
    </message>
    <message>
        <source>Paged optimizer states live in CUDA managed memory: nvidia-smi shows them, torch.cuda.max_memory_allocated does not.</source>
        <translation>分页优化器状态位于 CUDA 托管内存中：nvidia-smi 会显示它们，而 torch.cuda.max_memory_allocated 不会。</translation>
    </message>
    <message>
        <source>Optimizer-in-backward cannot accumulate gradients; gradient_accumulation is ignored by most frameworks.</source>
        <translation>在反向传播中执行优化器步骤（optimizer-in-backward）时无法累积梯度；大多数框架会忽略 gradient_accumulation。</translation>
    </message>
    <message>
        <source>Tensor/pipeline parallel assume an even split of parameters and sequence parallelism.</source>
        <translation>张量并行/流水线并行假定参数均匀切分，并启用序列并行。</translation>
    </message>
    <message>
        <source>FSDP1 with CPU offload keeps each unit&apos;s sharded gradient on the GPU until backward ends (pytorch#106029); counted here.</source>
        <translation>带 CPU 卸载的 FSDP1 会将每个单元的分片梯度保留在 GPU 上，直到反向传播结束（pytorch#106029）；此处已计入。</translation>
    </message>
    <message>
        <source>upcasts logits to fp32</source>
        <translation>将 logits 上转换为 fp32</translation>
    </message>
    <message>
        <source>stays in the compute dtype</source>
        <translation>保持计算 dtype</translation>
    </message>
    <message>
        <source>fp32</source>
        <translation>fp32</translation>
    </message>
    <message>
        <source>in the model dtype</source>
        <translation>使用模型 dtype</translation>
    </message>
    <message>
        <source>Sharding engine %1, ZeRO stage %2 in effect; adapters wrapped in their own FSDP units.</source>
        <translation>分片引擎 %1，实际生效的 ZeRO 阶段为 %2；适配器封装在各自独立的 FSDP 单元中。</translation>
    </message>
    <message>
        <source>Sharding engine %1, ZeRO stage %2 in effect; adapters share each block&apos;s flat parameter.</source>
        <translation>分片引擎 %1，实际生效的 ZeRO 阶段为 %2；适配器共享每个块的扁平参数。</translation>
    </message>
    <message>
        <source>Sharding engine %1, ZeRO stage %2 in effect.</source>
        <translation>分片引擎 %1，实际生效的 ZeRO 阶段为 %2。</translation>
    </message>
    <message>
        <source>CUDA context %1 MiB (given); allocator reserve 5% of the allocated peak + %2 GiB of gathered-parameter blocks cached by the unshard stream.</source>
        <translation>CUDA 上下文 %1 MiB（指定值）；分配器预留为已分配峰值的 5% + unshard 流缓存的 %2 GiB 聚合参数块。</translation>
    </message>
    <message>
        <source>CUDA context %1 MiB (default, lazy module loading); allocator reserve 5% of the allocated peak + %2 GiB of gathered-parameter blocks cached by the unshard stream.</source>
        <translation>CUDA 上下文 %1 MiB（默认值，延迟加载模块）；分配器预留为已分配峰值的 5% + unshard 流缓存的 %2 GiB 聚合参数块。</translation>
    </message>
    <message>
        <source>CUDA context %1 MiB (given); allocator reserve 5% of the allocated peak.</source>
        <translation>CUDA 上下文 %1 MiB（指定值）；分配器预留为已分配峰值的 5%。</translation>
    </message>
    <message>
        <source>CUDA context %1 MiB (default, lazy module loading); allocator reserve 5% of the allocated peak.</source>
        <translation>CUDA 上下文 %1 MiB（默认值，延迟加载模块）；分配器预留为已分配峰值的 5%。</translation>
    </message>
    <message>
        <source>Parameters: %1 B per trainable, %2 B per frozen 16/32-bit weight; gradients %3 B; master copy %4 B; optimizer state unit %5 B.</source>
        <translation>参数：每个可训练参数 %1 B，每个冻结的 16/32 位权重 %2 B；梯度 %3 B；主权重副本 %4 B；优化器状态单元 %5 B。</translation>
    </message>
    <message>
        <source>Peak moment: %1; the logits (%2 GiB at the loss) are freed before it.</source>
        <translation>峰值时刻：%1；logits（在损失处为 %2 GiB）在此之前已释放。</translation>
    </message>
    <message>
        <source>Overhead corrected by %1 MiB from a calibration against measured runs.</source>
        <translation>根据对实测运行的校准，开销修正了 %1 MiB。</translation>
    </message>
    <message>
        <source>Checkpointing auto: sized as full; the planner also tries none and selective.</source>
        <translation>激活检查点为自动：按完全检查点估算；规划器还会尝试不使用和选择性检查点。</translation>
    </message>
    <message>
        <source>&apos;%1&apos; must be an integer</source>
        <translation>&apos;%1&apos; 必须是整数</translation>
    </message>
    <message>
        <source>&apos;%1&apos; must be between %2 and 10,000,000</source>
        <translation>&apos;%1&apos; 必须介于 %2 和 10,000,000 之间</translation>
    </message>
    <message>
        <source>missing %1</source>
        <translation>缺少 %1</translation>
    </message>
    <message>
        <source>a config.json must be a JSON object</source>
        <translation>config.json 必须是 JSON 对象</translation>
    </message>
    <message>
        <source>no num_key_value_heads: assumed full multi-head attention</source>
        <translation>缺少 num_key_value_heads：假定为完整多头注意力</translation>
    </message>
    <message>
        <source>&apos;mlp_type&apos; must be &quot;gated&quot; or &quot;plain&quot;</source>
        <translation>&apos;mlp_type&apos; 必须是 &quot;gated&quot; 或 &quot;plain&quot;</translation>
    </message>
    <message>
        <source>&apos;norm_type&apos; must be &quot;rmsnorm&quot; or &quot;layernorm&quot;</source>
        <translation>&apos;norm_type&apos; 必须是 &quot;rmsnorm&quot; 或 &quot;layernorm&quot;</translation>
    </message>
    <message>
        <source>no intermediate_size: assumed 4 x hidden_size</source>
        <translation>缺少 intermediate_size：假定为 4 x hidden_size</translation>
    </message>
    <message>
        <source>a mixture-of-experts config needs &apos;num_experts_per_tok&apos;</source>
        <translation>混合专家（MoE）配置需要 &apos;num_experts_per_tok&apos;</translation>
    </message>
    <message>
        <source>missing &apos;intermediate_size&apos;</source>
        <translation>缺少 &apos;intermediate_size&apos;</translation>
    </message>
    <message>
        <source>num_key_value_heads must divide num_attention_heads</source>
        <translation>num_key_value_heads 必须能整除 num_attention_heads</translation>
    </message>
    <message>
        <source>num_attention_heads must divide hidden_size when head_dim is absent</source>
        <translation>缺少 head_dim 时，num_attention_heads 必须能整除 hidden_size</translation>
    </message>
    <message>
        <source>no model_type: assumed a Llama-style decoder (gated MLP, RMSNorm, rotary positions)</source>
        <translation>缺少 model_type：假定为 Llama 风格的解码器（门控 MLP，RMSNorm，旋转位置编码）</translation>
    </message>
    <message>
        <source>model_type &apos;%1&apos; is not known: assumed a Llama-style decoder (gated MLP, RMSNorm)</source>
        <translation>model_type &apos;%1&apos; 未知：假定为 Llama 风格的解码器（门控 MLP，RMSNorm）</translation>
    </message>
    <message>
        <source>unexpected value type: %1</source>
        <translation>意外的值类型：%1</translation>
    </message>
    <message>
        <source>missing &apos;metadata.total_size&apos;</source>
        <translation>缺少 &apos;metadata.total_size&apos;</translation>
    </message>
    <message>
        <source>file is larger than 16 MiB</source>
        <translation>文件大于 16 MiB</translation>
    </message>
    <message>
        <source>nested deeper than 64 levels</source>
        <translation>嵌套深度超过 64 层</translation>
    </message>
    <message>
        <source>not valid JSON (%1)</source>
        <translation>不是有效的 JSON（%1）</translation>
    </message>
    <message>
        <source>required field &apos;%1&apos; is missing</source>
        <translation>缺少必填字段 &apos;%1&apos;</translation>
    </message>
    <message>
        <source>&apos;%1&apos; must be a string</source>
        <translation>&apos;%1&apos; 必须是字符串</translation>
    </message>
    <message>
        <source>&apos;%1&apos; must be a number</source>
        <translation>&apos;%1&apos; 必须是数字</translation>
    </message>
    <message>
        <source>&apos;%1&apos; = %2 must be between %3 and %4</source>
        <translation>&apos;%1&apos; = %2 必须介于 %3 和 %4 之间</translation>
    </message>
    <message>
        <source>&apos;%1&apos; must be true or false</source>
        <translation>&apos;%1&apos; 必须是 true 或 false</translation>
    </message>
    <message>
        <source>required object &apos;%1&apos; is missing</source>
        <translation>缺少必需的对象 &apos;%1&apos;</translation>
    </message>
    <message>
        <source>&apos;%1&apos; must be an object</source>
        <translation>&apos;%1&apos; 必须是对象</translation>
    </message>
    <message>
        <source>a measurement must be a JSON object</source>
        <translation>测量结果必须是 JSON 对象</translation>
    </message>
    <message>
        <source>&apos;format&apos; is &apos;%1&apos;, expected &apos;gpusizer-measurement&apos;</source>
        <translation>&apos;format&apos; 为 &apos;%1&apos;，应为 &apos;gpusizer-measurement&apos;</translation>
    </message>
    <message>
        <source>version %1 is newer than this GPU Sizer reads</source>
        <translation>版本 %1 高于此版本 GPU Sizer 可读取的版本</translation>
    </message>
    <message>
        <source>&apos;device&apos; must be cuda or cpu</source>
        <translation>&apos;device&apos; 必须是 cuda 或 cpu</translation>
    </message>
    <message>
        <source>a CUDA run must report max_memory_allocated_bytes</source>
        <translation>CUDA 运行必须报告 max_memory_allocated_bytes</translation>
    </message>
    <message>
        <source>&apos;step_seconds&apos; must be an array</source>
        <translation>&apos;step_seconds&apos; 必须是数组</translation>
    </message>
    <message>
        <source>&apos;step_seconds&apos; must hold positive numbers</source>
        <translation>&apos;step_seconds&apos; 中的元素必须是正数</translation>
    </message>
    <message>
        <source>&apos;scenario&apos; (the scenario the script ran) is missing</source>
        <translation>缺少 &apos;scenario&apos;（脚本运行时所用的场景）</translation>
    </message>
    <message>
        <source>the measurement ran another model: %1 base parameters against %2 in the scenario</source>
        <translation>测量运行的是另一个模型：基础参数 %1，而场景中为 %2</translation>
    </message>
    <message>
        <source>the measurement ran a different method, micro-batch or sequence length than the scenario: the comparison uses the measured run&apos;s shape</source>
        <translation>测量运行的方法、微批次或序列长度与场景不同：对比将采用实测运行的形状</translation>
    </message>
    <message>
        <source>a CPU smoke run: no GPU memory was measured, and it is never used for calibration</source>
        <translation>CPU 冒烟测试运行：未测量 GPU 显存，且从不用于校准</translation>
    </message>
    <message>
        <source>the GPU &apos;%1&apos; is not in the catalog: step time not compared</source>
        <translation>GPU &apos;%1&apos; 不在目录中：未对比单步时间</translation>
    </message>
    <message>
        <source>a CPU smoke run was left out: it measures no GPU memory</source>
        <translation>已排除一次 CPU 冒烟测试运行：它不测量 GPU 显存</translation>
    </message>
    <message>
        <source>a run on &apos;%1&apos; was left out (GPU not in the catalog or memory figures missing)</source>
        <translation>已排除一次在 &apos;%1&apos; 上的运行（GPU 不在目录中或缺少显存数据）</translation>
    </message>
    <message>
        <source>a run on %1 was left out: calibrations are per GPU model and framework (this one is %2)</source>
        <translation>已排除一次在 %1 上的运行：校准按 GPU 型号和框架分别进行（本次为 %2）</translation>
    </message>
    <message>
        <source>no GPU run to calibrate from (CPU runs never are)</source>
        <translation>没有可用于校准的 GPU 运行（CPU 运行从不用于校准）</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>A label for reports and titles.</source>
        <translation>用于报告和标题的标签。</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>A catalog id, a Hugging Face config.json object, or {&quot;params_billion&quot;: N} for a Llama-style model of that size.</source>
        <translation>目录 id，Hugging Face config.json 对象，或 {&quot;params_billion&quot;: N}（表示该规模的 Llama 风格模型）。</translation>
    </message>
    <message>
        <source>Method</source>
        <translation>方法</translation>
    </message>
    <message>
        <source>Full fine-tuning trains every weight; LoRA freezes the base and trains adapters; QLoRA stores the base in 4 bits.</source>
        <translation>全参数微调训练所有权重；LoRA 冻结基础模型并训练适配器；QLoRA 以 4 位存储基础模型。</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>Where weights, gradients and optimizer states live and in which dtype: bf16 (2+2+4 B/param with AdamW), bf16 with fp32 master (2+2+4+8), AMP (4+4+8), fp32.</source>
        <translation>权重、梯度和优化器状态存放的位置及其 dtype：bf16（使用 AdamW 时为 2+2+4 B/参数），bf16 加 fp32 主权重副本（2+2+4+8），AMP（4+4+8），fp32。</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>Optimizer states per trainable parameter: AdamW 2 states, 8-bit Adam ~2 B, SGD-momentum/Lion 1 state, Adafactor factored.</source>
        <translation>每个可训练参数的优化器状态：AdamW 2 个状态，8-bit Adam 约 2 B，SGD-momentum/Lion 1 个状态，Adafactor 为分解存储。</translation>
    </message>
    <message>
        <source>Step in backward</source>
        <translation>在反向传播中执行优化器步骤</translation>
    </message>
    <message>
        <source>Free each gradient as soon as its parameter steps: only the largest gradient is alive (no gradient accumulation).</source>
        <translation>每个参数完成更新后立即释放其梯度：只有最大的那个梯度存活（不支持梯度累积）。</translation>
    </message>
    <message>
        <source>LoRA rank</source>
        <translation>LoRA 秩</translation>
    </message>
    <message>
        <source>LoRA alpha</source>
        <translation>LoRA alpha</translation>
    </message>
    <message>
        <source>LoRA scaling numerator (alpha / r); no effect on memory.</source>
        <translation>LoRA 缩放分子（alpha / r）；不影响显存。</translation>
    </message>
    <message>
        <source>LoRA dropout</source>
        <translation>LoRA dropout</translation>
    </message>
    <message>
        <source>LoRA dropout: above 0 every adapted module saves its own dropout output and mask.</source>
        <translation>LoRA dropout：大于 0 时，每个被适配的模块都会保存自己的 dropout 输出和掩码。</translation>
    </message>
    <message>
        <source>Adapter dtype</source>
        <translation>适配器 dtype</translation>
    </message>
    <message>
        <source>Adapter dtype; auto follows the framework (PEFT keeps adapters in fp32, torchtune and LitGPT in bf16).</source>
        <translation>适配器 dtype；auto 表示跟随框架（PEFT 将适配器保持为 fp32，torchtune 和 LitGPT 为 bf16）。</translation>
    </message>
    <message>
        <source>LoRA targets</source>
        <translation>LoRA 目标模块</translation>
    </message>
    <message>
        <source>The projections that get an adapter in every layer (q_proj … down_proj, &quot;all-linear&quot;, lm_head, embed_tokens).</source>
        <translation>每层中添加适配器的投影（q_proj … down_proj，&quot;all-linear&quot;，lm_head，embed_tokens）。</translation>
    </message>
    <message>
        <source>Modules to save</source>
        <translation>需保存的模块</translation>
    </message>
    <message>
        <source>PEFT modules_to_save: a trainable full copy of lm_head or the embeddings beside the frozen original.</source>
        <translation>PEFT modules_to_save：在冻结的原始模块旁保留 lm_head 或嵌入层的可训练完整副本。</translation>
    </message>
    <message>
        <source>Quantization</source>
        <translation>量化</translation>
    </message>
    <message>
        <source>QLoRA base storage: NF4 0.56 B/weight, NF4 with double quantization 0.52 B/weight, LLM.int8 1 B/weight.</source>
        <translation>QLoRA 基础模型存储：NF4 0.56 B/权重，带双重量化的 NF4 0.52 B/权重，LLM.int8 1 B/权重。</translation>
    </message>
    <message>
        <source>Micro-batch</source>
        <translation>微批次</translation>
    </message>
    <message>
        <source>Sequences per GPU per forward pass: activations and logits grow linearly with it.</source>
        <translation>每 GPU 每次前向传播处理的序列数：激活值和 logits 随之线性增长。</translation>
    </message>
    <message>
        <source>Sequence length</source>
        <translation>序列长度</translation>
    </message>
    <message>
        <source>Tokens per sequence: activations and logits grow with it — use your longest sequence (or packing length), not the average.</source>
        <translation>每个序列的 token 数：激活值和 logits 随之增长——请使用最长序列（或打包长度），而不是平均长度。</translation>
    </message>
    <message>
        <source>Gradient accumulation</source>
        <translation>梯度累积</translation>
    </message>
    <message>
        <source>Gradient accumulation steps: above 1 the gradients stay alive through every forward pass.</source>
        <translation>梯度累积步数：大于 1 时，梯度会在每次前向传播期间一直存活。</translation>
    </message>
    <message>
        <source>Checkpointing</source>
        <translation>激活检查点</translation>
    </message>
    <message>
        <source>Gradient checkpointing: full keeps one tensor per layer and recomputes the rest (~30% more compute); selective drops only what the framework recomputes cheaply; auto lets the planner choose.</source>
        <translation>梯度检查点：完整（full）每层只保留一个张量并重算其余部分（计算量约增加 30%）；选择性（selective）只丢弃框架能以较低代价重算的部分；自动（auto）由规划器选择。</translation>
    </message>
    <message>
        <source>Checkpoint every</source>
        <translation>检查点间隔</translation>
    </message>
    <message>
        <source>every-nth: checkpoint every n-th block fully and keep the others whole (torchtitan selective_ac_option &quot;n&quot;).</source>
        <translation>every-nth：每隔 n 个块对一个块做完整检查点，其余块完整保留激活值（torchtitan selective_ac_option &quot;n&quot;）。</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>Attention kernel: flash/SDPA store no seq² scores; eager stores them for every head and layer.</source>
        <translation>注意力内核：flash/SDPA 不存储 seq² 分数；eager 会为每个头和每一层存储这些分数。</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>Cross-entropy: standard holds batch × sequence × vocabulary logits in fp32 several times; chunked keeps about one 16-bit copy; fused kernels never hold them.</source>
        <translation>交叉熵：标准（standard）会以 fp32 多次保存 批次 × 序列 × 词表 大小的 logits；分块（chunked）只保留约一份 16 位副本；融合内核则完全不保存。</translation>
    </message>
    <message>
        <source>Offload activations to CPU</source>
        <translation>将激活值卸载到 CPU</translation>
    </message>
    <message>
        <source>Keep only about two layers of saved activations on the GPU; the rest wait in pinned host memory.</source>
        <translation>GPU 上只保留约两层已保存的激活值；其余部分存放在锁页主机内存中等待使用。</translation>
    </message>
    <message>
        <source>torch.compile</source>
        <translation>torch.compile</translation>
    </message>
    <message>
        <source>Compiling fuses norms, activations and RoPE, saving activation memory.</source>
        <translation>编译会融合归一化、激活函数和 RoPE，从而节省激活值显存。</translation>
    </message>
    <message>
        <source>Framework</source>
        <translation>框架</translation>
    </message>
    <message>
        <source>Training stack: decides behaviours such as the loss upcast, adapter dtype and optimizer kernel (see docs/memory-model.md).</source>
        <translation>训练栈：决定损失精度提升（upcast）、适配器数据类型和优化器内核等行为（参见 docs/memory-model.md）。</translation>
    </message>
    <message>
        <source>Framework overrides</source>
        <translation>框架行为覆盖</translation>
    </message>
    <message>
        <source>Single framework behaviours set explicitly (docs/memory-model.md §7).</source>
        <translation>单独显式设置的框架行为（docs/memory-model.md §7）。</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数量</translation>
    </message>
    <message>
        <source>GPUs in the run: with ZeRO/FSDP, model states are divided among them; activations are not.</source>
        <translation>本次运行使用的 GPU：使用 ZeRO/FSDP 时，模型状态会在它们之间划分；激活值则不会。</translation>
    </message>
    <message>
        <source>Sharding</source>
        <translation>分片</translation>
    </message>
    <message>
        <source>ZeRO stage: 1 shards optimizer states, 2 also gradients, 3 (FSDP full shard) also weights.</source>
        <translation>ZeRO 阶段：1 分片优化器状态，2 还分片梯度，3（FSDP 完全分片）还分片权重。</translation>
    </message>
    <message>
        <source>Sharding engine</source>
        <translation>分片引擎</translation>
    </message>
    <message>
        <source>Adapter wrapping</source>
        <translation>适配器包装方式</translation>
    </message>
    <message>
        <source>FSDP1 with adapters: separate (PEFT&apos;s wrap policy, applied by the transformers Trainer) gives gradients to the adapters only; mixed (LitGPT&apos;s per-block units) computes gradients for every frozen weight of the block too.</source>
        <translation>FSDP1 搭配适配器时：分离（separate，PEFT 的包装策略，由 transformers Trainer 应用）只为适配器计算梯度；混合（mixed，LitGPT 的逐块单元）还会为该块中的每个冻结权重计算梯度。</translation>
    </message>
    <message>
        <source>Tensor parallel</source>
        <translation>张量并行</translation>
    </message>
    <message>
        <source>Tensor parallel degree: splits every layer&apos;s weights and activations across GPUs; must divide the attention heads and the key/value heads.</source>
        <translation>张量并行度：将每一层的权重和激活值切分到多个 GPU 上；必须能整除注意力头数和键/值头数。</translation>
    </message>
    <message>
        <source>Pipeline parallel</source>
        <translation>流水线并行</translation>
    </message>
    <message>
        <source>Pipeline stages: split the layers; the first stage still holds activations of every in-flight micro-batch.</source>
        <translation>流水线阶段数：切分各层；第一个阶段仍需保存所有进行中的微批次的激活值。</translation>
    </message>
    <message>
        <source>Expert parallel</source>
        <translation>专家并行</translation>
    </message>
    <message>
        <source>MoE: routed experts split over this many GPUs of the data-parallel group; must divide the experts.</source>
        <translation>MoE：将路由专家分布到数据并行组中这么多个 GPU 上；必须能整除专家数。</translation>
    </message>
    <message>
        <source>Offload</source>
        <translation>卸载</translation>
    </message>
    <message>
        <source>ZeRO-Offload: move optimizer states (and parameters) to host RAM.</source>
        <translation>ZeRO-Offload：将优化器状态（以及参数）移至主机内存。</translation>
    </message>
    <message>
        <source>GPU in mind</source>
        <translation>拟用 GPU</translation>
    </message>
    <message>
        <source>The card you have in mind: its usable memory is drawn across the charts and the verdicts name it.</source>
        <translation>您打算使用的 GPU：图表中会标出其可用显存，判定结论中也会提到它。</translation>
    </message>
    <message>
        <source>CUDA context</source>
        <translation>CUDA 上下文</translation>
    </message>
    <message>
        <source>A measured CUDA context size in GiB (default 0.5 GiB, lazy module loading).</source>
        <translation>实测的 CUDA 上下文大小，单位 GiB（默认 0.5 GiB，启用延迟模块加载）。</translation>
    </message>
    <message>
        <source>Overhead correction</source>
        <translation>开销校正</translation>
    </message>
    <message>
        <source>A device-memory correction saved with the scenario (GiB).</source>
        <translation>随场景一起保存的设备显存校正值（GiB）。</translation>
    </message>
    <message>
        <source>Measurements</source>
        <translation>测量结果</translation>
    </message>
    <message>
        <source>Measured runs of this scenario (gpusizer-measurement documents).</source>
        <translation>此场景的实测运行（gpusizer-measurement 文档）。</translation>
    </message>
    <message>
        <source>must be at least %1 and below %2</source>
        <translation>必须大于等于 %1 且小于 %2</translation>
    </message>
    <message>
        <source>must be between %1 and %2</source>
        <translation>必须介于 %1 与 %2 之间</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not one of: %2</source>
        <translation>&apos;%1&apos; 不是以下值之一：%2</translation>
    </message>
    <message>
        <source>required field &apos;model&apos; is missing (a catalog id, a config.json object or {&quot;params_billion&quot;: N})</source>
        <translation>缺少必填字段 &apos;model&apos;（应为目录 ID、config.json 对象或 {&quot;params_billion&quot;: N}）</translation>
    </message>
    <message>
        <source>model &apos;%1&apos; is not in the model catalog</source>
        <translation>模型 &apos;%1&apos; 不在模型目录中</translation>
    </message>
    <message>
        <source>&apos;model&apos; must be a catalog id, a config.json object or {&quot;params_billion&quot;: N}</source>
        <translation>&apos;model&apos; 必须是目录 ID、config.json 对象或 {&quot;params_billion&quot;: N}</translation>
    </message>
    <message>
        <source>&apos;targets&apos; must hold module names</source>
        <translation>&apos;targets&apos; 必须包含模块名称</translation>
    </message>
    <message>
        <source>&apos;targets&apos; must be &quot;all-linear&quot; or an array of module names</source>
        <translation>&apos;targets&apos; 必须为 &quot;all-linear&quot; 或模块名称数组</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a known module (q_proj, k_proj, v_proj, o_proj, gate_proj, up_proj, down_proj, all-linear, or an alias such as query/value/c_attn/w1)</source>
        <translation>&apos;%1&apos; 不是已知模块（可用 q_proj, k_proj, v_proj, o_proj, gate_proj, up_proj, down_proj, all-linear，或 query/value/c_attn/w1 等别名）</translation>
    </message>
    <message>
        <source>LoRA needs at least one target module</source>
        <translation>LoRA 至少需要一个目标模块</translation>
    </message>
    <message>
        <source>&apos;modules_to_save&apos; must be an array of module names</source>
        <translation>&apos;modules_to_save&apos; 必须是模块名称数组</translation>
    </message>
    <message>
        <source>modules_to_save entries must be &quot;lm_head&quot; or &quot;embed_tokens&quot;</source>
        <translation>modules_to_save 的条目必须为 &quot;lm_head&quot; 或 &quot;embed_tokens&quot;</translation>
    </message>
    <message>
        <source>unknown framework override &apos;%1&apos;</source>
        <translation>未知的框架行为覆盖项 &apos;%1&apos;</translation>
    </message>
    <message>
        <source>a scenario must be a JSON object</source>
        <translation>场景必须是一个 JSON 对象</translation>
    </message>
    <message>
        <source>&apos;format&apos; is &apos;%1&apos;, expected &apos;gpusizer-scenario&apos;</source>
        <translation>&apos;format&apos; 为 &apos;%1&apos;，应为 &apos;gpusizer-scenario&apos;</translation>
    </message>
    <message>
        <source>version %1 is newer than this GPU Sizer reads (1)</source>
        <translation>版本 %1 高于此 GPU Sizer 可读取的版本（1）</translation>
    </message>
    <message>
        <source>ignored unknown field &apos;%1&apos; in %2</source>
        <translation>已忽略 %2 中的未知字段 &apos;%1&apos;</translation>
    </message>
    <message>
        <source>GPU &apos;%1&apos; is not in the GPU catalog</source>
        <translation>GPU &apos;%1&apos; 不在 GPU 目录中</translation>
    </message>
    <message>
        <source>&apos;measurements&apos; must be an array of measurement results</source>
        <translation>&apos;measurements&apos; 必须是测量结果数组</translation>
    </message>
    <message>
        <source>every item of &apos;measurements&apos; must be a gpusizer-measurement</source>
        <translation>&apos;measurements&apos; 中的每一项都必须是 gpusizer-measurement</translation>
    </message>
    <message>
        <source>num_attention_heads must divide hidden_size when head_dim is not given</source>
        <translation>未提供 head_dim 时，hidden_size 必须能被 num_attention_heads 整除</translation>
    </message>
    <message>
        <source>gpus must be a multiple of tensor_parallel x pipeline_parallel</source>
        <translation>gpus 必须是 tensor_parallel x pipeline_parallel 的倍数</translation>
    </message>
    <message>
        <source>tensor_parallel must divide the attention heads (%1) and the key/value heads (%2)</source>
        <translation>tensor_parallel 必须能整除注意力头数（%1）和键/值头数（%2）</translation>
    </message>
    <message>
        <source>expert_parallel needs a mixture-of-experts model and must divide both the number of experts and the data-parallel degree</source>
        <translation>expert_parallel 需要混合专家（MoE）模型，且必须能同时整除专家数和数据并行度</translation>
    </message>
    <message>
        <source>pipeline_parallel cannot exceed the number of layers</source>
        <translation>pipeline_parallel 不能超过层数</translation>
    </message>
    <message>
        <source>FSDP offloads parameters, gradients and optimizer states together (CPUOffload(offload_params=True)); choose offload &quot;optimizer+params&quot;, or the DeepSpeed engine for optimizer-only offload</source>
        <translation>FSDP 会同时卸载参数、梯度和优化器状态（CPUOffload(offload_params=True)）；请选择 offload &quot;optimizer+params&quot;，或改用 DeepSpeed 引擎以仅卸载优化器状态</translation>
    </message>
    <message>
        <source>Megatron&apos;s distributed optimizer shards optimizer states only (ZeRO-1); choose sharding none or zero1</source>
        <translation>Megatron 的分布式优化器仅分片优化器状态（ZeRO-1）；请将 sharding 选为 none 或 zero1</translation>
    </message>
    <message>
        <source>the Megatron engine does not offload to the CPU here</source>
        <translation>此处 Megatron 引擎不支持卸载到 CPU</translation>
    </message>
    <message>
        <source>must be between 0 and 64 GiB</source>
        <translation>必须介于 0 与 64 GiB 之间</translation>
    </message>
    <message>
        <source>Smaller micro-batch</source>
        <translation>更小的微批次</translation>
    </message>
    <message>
        <source>Shorter sequences</source>
        <translation>更短的序列</translation>
    </message>
    <message>
        <source>Selective checkpointing</source>
        <translation>选择性激活检查点</translation>
    </message>
    <message>
        <source>Full checkpointing</source>
        <translation>完整激活检查点</translation>
    </message>
    <message>
        <source>FlashAttention / SDPA</source>
        <translation>FlashAttention / SDPA</translation>
    </message>
    <message>
        <source>Chunked cross-entropy</source>
        <translation>分块交叉熵</translation>
    </message>
    <message>
        <source>8-bit AdamW</source>
        <translation>8 位 AdamW</translation>
    </message>
    <message>
        <source>Adafactor</source>
        <translation>Adafactor</translation>
    </message>
    <message>
        <source>Optimizer in backward</source>
        <translation>在反向传播中执行优化器步骤</translation>
    </message>
    <message>
        <source>Full → LoRA</source>
        <translation>全参数 → LoRA</translation>
    </message>
    <message>
        <source>→ QLoRA</source>
        <translation>→ QLoRA</translation>
    </message>
    <message>
        <source>More cards, ZeRO-3 / FSDP</source>
        <translation>更多 GPU，ZeRO-3 / FSDP</translation>
    </message>
    <message>
        <source>CPU offload</source>
        <translation>CPU 卸载</translation>
    </message>
    <message>
        <source>same global batch; lower GPU utilisation per step, so somewhat slower</source>
        <translation>全局批次不变；每步的 GPU 利用率降低，因此会稍慢</translation>
    </message>
    <message>
        <source>longer examples must be truncated or split; size for your longest sequence, not the average</source>
        <translation>更长的样本必须截断或拆分；请按最长序列而非平均长度来估算</translation>
    </message>
    <message>
        <source>a few percent more compute (recomputes cheap tensors; with flash/SDPA attention it may save little)</source>
        <translation>计算量增加几个百分点（重算代价低的张量；使用 flash/SDPA 注意力时可能节省不多）</translation>
    </message>
    <message>
        <source>about 20-30% more compute (one extra forward pass per step)</source>
        <translation>计算量增加约 20-30%（每步多一次前向传播）</translation>
    </message>
    <message>
        <source>none: faster as well</source>
        <translation>无：而且更快</translation>
    </message>
    <message>
        <source>usually no measurable quality change; needs bitsandbytes</source>
        <translation>通常不会带来可测量的质量变化；需要 bitsandbytes</translation>
    </message>
    <message>
        <source>may need learning-rate retuning; convergence can differ from AdamW</source>
        <translation>可能需要重新调整学习率；收敛表现可能与 AdamW 不同</translation>
    </message>
    <message>
        <source>no gradient accumulation and no gradient clipping across parameters</source>
        <translation>无法使用梯度累积，也无法跨参数进行梯度裁剪</translation>
    </message>
    <message>
        <source>trains far fewer parameters: close to full fine-tuning on most tasks, weaker on tasks far from pre-training</source>
        <translation>训练的参数少得多：在大多数任务上接近全参数微调，在与预训练差异较大的任务上效果较弱</translation>
    </message>
    <message>
        <source>small quality loss from the 4-bit base and ~20-40% slower steps (dequantization); merge into the 16-bit base</source>
        <translation>4 位基座模型会带来少量质量损失，且单步时间慢约 20-40%（反量化）；请合并到 16 位基座模型中</translation>
    </message>
    <message>
        <source>more GPUs to rent; communication cost grows (NVLink scales well, PCIe poorly)</source>
        <translation>需要租用更多 GPU；通信成本随之增加（NVLink 扩展性好，PCIe 较差）</translation>
    </message>
    <message>
        <source>much slower steps (PCIe-bound) and large host RAM</source>
        <translation>单步时间大幅增加（受 PCIe 限制），且需要大量主机内存</translation>
    </message>
    <message>
        <source>micro-batch is already 1</source>
        <translation>微批次已经是 1</translation>
    </message>
    <message>
        <source>sequences are already short</source>
        <translation>序列已经很短</translation>
    </message>
    <message>
        <source>checkpointing is already on</source>
        <translation>激活检查点已开启</translation>
    </message>
    <message>
        <source>already full checkpointing</source>
        <translation>已是完整激活检查点</translation>
    </message>
    <message>
        <source>already SDPA/FlashAttention</source>
        <translation>已是 SDPA/FlashAttention</translation>
    </message>
    <message>
        <source>no vocabulary-sized logits</source>
        <translation>没有词表大小的 logits</translation>
    </message>
    <message>
        <source>already chunked</source>
        <translation>已是分块</translation>
    </message>
    <message>
        <source>already 8-bit</source>
        <translation>已是 8 位</translation>
    </message>
    <message>
        <source>only replaces AdamW</source>
        <translation>仅能替换 AdamW</translation>
    </message>
    <message>
        <source>already Adafactor</source>
        <translation>已是 Adafactor</translation>
    </message>
    <message>
        <source>already on</source>
        <translation>已开启</translation>
    </message>
    <message>
        <source>gradients are already tiny with adapters</source>
        <translation>使用适配器时梯度已经很小</translation>
    </message>
    <message>
        <source>already adapters</source>
        <translation>已在使用适配器</translation>
    </message>
    <message>
        <source>already QLoRA</source>
        <translation>已是 QLoRA</translation>
    </message>
    <message>
        <source>already offloading</source>
        <translation>已在卸载</translation>
    </message>
    <message>
        <source>optimizer step in backward (no gradient accumulation)</source>
        <translation>在反向传播中执行优化器步骤（不使用梯度累积）</translation>
    </message>
    <message>
        <source>ZeRO-Offload: %1 to host RAM</source>
        <translation>ZeRO-Offload：将 %1 卸载到主机内存</translation>
    </message>
    <message>
        <source>Fix (cheapest first)</source>
        <translation>解决办法（代价最低者优先）</translation>
    </message>
    <message>
        <source>What changes</source>
        <translation>变更内容</translation>
    </message>
    <message>
        <source>Saves per GPU</source>
        <translation>每 GPU 节省</translation>
    </message>
    <message>
        <source>Then per GPU</source>
        <translation>之后每 GPU</translation>
    </message>
    <message>
        <source>Fits alone</source>
        <translation>单独即可放下</translation>
    </message>
    <message>
        <source>Price</source>
        <translation>代价</translation>
    </message>
    <message>
        <source>%1. %2</source>
        <translation>%1. %2</translation>
    </message>
    <message>
        <source>does not apply: %1</source>
        <translation>不适用：%1</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>%1 — no fix needed.</source>
        <translation>%1——无需解决办法。</translation>
    </message>
    <message>
        <source>%1. No combination of the fixes fits the %2.</source>
        <translation>%1。任何解决办法组合都无法在 %2 上放得下。</translation>
    </message>
    <message>
        <source>full fine-tuning</source>
        <translation>全参数微调</translation>
    </message>
    <message>
        <source>LoRA</source>
        <translation>LoRA</translation>
    </message>
    <message>
        <source>QLoRA</source>
        <translation>QLoRA</translation>
    </message>
    <message>
        <source>The task is far from what the model already does and there is plenty of data: full fine-tuning can move every weight and uses the data best.</source>
        <translation>任务与模型现有能力差异很大，且数据充足：全参数微调可以调整每个权重，最充分地利用数据。</translation>
    </message>
    <message>
        <source>The task is far from the model&apos;s behaviour, but without a large dataset full fine-tuning tends to overfit: LoRA with a higher rank and more target modules.</source>
        <translation>任务与模型现有行为差异很大，但没有大型数据集时全参数微调容易过拟合：建议使用更高秩、更多目标模块的 LoRA。</translation>
    </message>
    <message>
        <source>The task is close to what the model already does: LoRA adapters reach nearly the quality of full fine-tuning at a fraction of the memory.</source>
        <translation>任务与模型现有能力接近：LoRA 适配器只需一小部分显存即可达到接近全参数微调的质量。</translation>
    </message>
    <message>
        <source>The task differs somewhat from what the model does: LoRA on all linear layers usually comes close to full fine-tuning at a fraction of the memory.</source>
        <translation>任务与模型现有能力有一定差异：在所有线性层上应用 LoRA，通常只需一小部分显存即可接近全参数微调的效果。</translation>
    </message>
    <message>
        <source>With little data, fewer trainable parameters also regularise.</source>
        <translation>数据较少时，更少的可训练参数还能起到正则化作用。</translation>
    </message>
    <message>
        <source>A small quality trade-off is acceptable: QLoRA stores the base in 4 bits and cuts the weights to about a quarter, often to a single smaller card.</source>
        <translation>可以接受少量质量损失：QLoRA 以 4 位存储基座模型，将权重缩减到约四分之一，通常只需一块更小的 GPU。</translation>
    </message>
    <message>
        <source>Even with a quality trade-off allowed, the data and distance favour full fine-tuning; consider LoRA with a high rank if memory is the constraint.</source>
        <translation>即使允许一定的质量折衷，数据量和任务差异仍倾向于全参数微调；如果显存受限，可考虑使用高秩 LoRA。</translation>
    </message>
    <message>
        <source>Serving adapters separately (one base, many adapters) favours LoRA/QLoRA: each adapter is megabytes, not a full checkpoint.</source>
        <translation>单独部署适配器（一个基座、多个适配器）更适合 LoRA/QLoRA：每个适配器只有几 MB，而不是一个完整检查点。</translation>
    </message>
    <message>
        <source>Full fine-tuning produces a full checkpoint per task; adapters cannot be swapped.</source>
        <translation>全参数微调会为每个任务生成一个完整检查点；无法切换适配器。</translation>
    </message>
    <message>
        <source>Merge a QLoRA adapter into the 16-bit base model, not into the 4-bit one: merging into the quantized weights loses the adapter&apos;s precision.</source>
        <translation>请将 QLoRA 适配器合并到 16 位基座模型中，而不是 4 位模型：合并到量化权重会损失适配器的精度。</translation>
    </message>
    <message>
        <source>Check the result against a held-out set: adapters can underfit tasks far from pre-training.</source>
        <translation>请在留出集上检验结果：对于与预训练差异较大的任务，适配器可能欠拟合。</translation>
    </message>
    <message>
        <source>Recommended: %1</source>
        <translation>推荐：%1</translation>
    </message>
    <message>
        <source>⚠ %1</source>
        <translation>⚠ %1</translation>
    </message>
    <message>
        <source>Your model (%1)</source>
        <translation>您的模型（%1）</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>none up to %1 cards</source>
        <translation>最多 %1 个 GPU 也放不下</translation>
    </message>
    <message>
        <source>%1 × %2</source>
        <translation>%1 × %2</translation>
    </message>
    <message>
        <source>Model size</source>
        <translation>模型规模</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Full fine-tuning</source>
        <translation>全参数微调</translation>
    </message>
    <message>
        <source>Total per GPU (device)</source>
        <translation>每 GPU 总计（设备显存）</translation>
    </message>
    <message>
        <source>Allocated peak (torch)</source>
        <translation>已分配峰值（torch）</translation>
    </message>
    <message>
        <source>Trainable parameters</source>
        <translation>可训练参数</translation>
    </message>
    <message>
        <source>Component</source>
        <translation>组件</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>GiB per GPU</source>
        <translation>每 GPU（GiB）</translation>
    </message>
    <message>
        <source>Share</source>
        <translation>占比</translation>
    </message>
    <message>
        <source>What it holds</source>
        <translation>包含内容</translation>
    </message>
    <message>
        <source>What nvidia-smi shows on each GPU at the peak.</source>
        <translation>峰值时 nvidia-smi 在每个 GPU 上显示的用量。</translation>
    </message>
    <message>
        <source>Expected range %1 – %2</source>
        <translation>预期范围 %1 – %2</translation>
    </message>
    <message>
        <source>CPU smoke run</source>
        <translation>CPU 冒烟测试运行</translation>
    </message>
    <message>
        <source>allocated peak (torch)</source>
        <translation>已分配峰值（torch）</translation>
    </message>
    <message>
        <source>reserved peak (torch)</source>
        <translation>已保留峰值（torch）</translation>
    </message>
    <message>
        <source>device (nvidia-smi)</source>
        <translation>设备显存（nvidia-smi）</translation>
    </message>
    <message>
        <source>step time</source>
        <translation>单步时间</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Figure</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>Estimated</source>
        <translation>估算值</translation>
    </message>
    <message>
        <source>Measured</source>
        <translation>实测值</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>误差</translation>
    </message>
    <message>
        <source>not measured</source>
        <translation>未测量</translation>
    </message>
    <message>
        <source>integer</source>
        <translation>整数</translation>
    </message>
    <message>
        <source>number</source>
        <translation>数值</translation>
    </message>
    <message>
        <source>true / false</source>
        <translation>true / false</translation>
    </message>
    <message>
        <source>choice</source>
        <translation>选项</translation>
    </message>
    <message>
        <source>see docs</source>
        <translation>参见文档</translation>
    </message>
    <message>
        <source>Llama-style model of %1 (derived from the size)</source>
        <translation>%1 规模的 Llama 类模型（根据规模推导）</translation>
    </message>
    <message>
        <source>Imported: %1</source>
        <translation>已导入：%1</translation>
    </message>
    <message>
        <source>%1 (catalog id %2)</source>
        <translation>%1（目录 ID %2）</translation>
    </message>
    <message>
        <source>LoRA r%1 on %2</source>
        <translation>LoRA r%1，作用于 %2</translation>
    </message>
    <message>
        <source>QLoRA (%1) r%2 on %3</source>
        <translation>QLoRA（%1）r%2，作用于 %3</translation>
    </message>
    <message>
        <source>Setting</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>default</source>
        <translation>默认</translation>
    </message>
    <message>
        <source>Architecture</source>
        <translation>架构</translation>
    </message>
    <message>
        <source>%1 layers, hidden %2, %3 heads (%4 kv), MLP %5, vocabulary %6%7%8</source>
        <translation>%1 层，隐藏维度 %2，%3 个头（%4 个 kv），MLP %5，词表 %6%7%8</translation>
    </message>
    <message>
        <source>, tied embeddings</source>
        <translation>，共享词嵌入权重</translation>
    </message>
    <message>
        <source>, %1 experts (%2 per token)</source>
        <translation>，%1 个专家（每 token %2 个）</translation>
    </message>
    <message>
        <source>%1 total, %2 trainable</source>
        <translation>总计 %1，可训练 %2</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>%1, in effect: %2</source>
        <translation>%1，实际生效：%2</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Allowed</source>
        <translation>允许值</translation>
    </message>
    <message>
        <source>Default</source>
        <translation>默认</translation>
    </message>
    <message>
        <source>What it changes</source>
        <translation>作用</translation>
    </message>
    <message>
        <source>%1 to %2</source>
        <translation>%1 至 %2</translation>
    </message>
    <message>
        <source>%1 to below %2</source>
        <translation>%1 至低于 %2</translation>
    </message>
    <message>
        <source>see docs/scenario-format.md</source>
        <translation>参见 docs/scenario-format.md</translation>
    </message>
    <message>
        <source>Weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>Optimizer states</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <source>Activations</source>
        <translation>激活值</translation>
    </message>
    <message>
        <source>Logits &amp; loss</source>
        <translation>Logits &amp; 损失</translation>
    </message>
    <message>
        <source>Transient</source>
        <translation>临时缓冲</translation>
    </message>
    <message>
        <source>Overhead</source>
        <translation>开销</translation>
    </message>
    <message>
        <source>Model parameters as stored on the GPU (16/32-bit or quantized).</source>
        <translation>存储在 GPU 上的模型参数（16/32 位或量化）。</translation>
    </message>
    <message>
        <source>One gradient per trainable parameter, alive at the peak moment.</source>
        <translation>每个可训练参数对应一份梯度，在峰值时刻仍驻留。</translation>
    </message>
    <message>
        <source>Optimizer moments plus fp32 master weights where the recipe keeps them.</source>
        <translation>优化器矩估计，以及训练方案保留时的 fp32 主权重副本。</translation>
    </message>
    <message>
        <source>Tensors saved for backward; grow with batch × sequence × layers.</source>
        <translation>为反向传播保存的张量；随批次 × 序列 × 层数增长。</translation>
    </message>
    <message>
        <source>Batch × sequence × vocabulary logits, their fp32 upcast and gradient.</source>
        <translation>批次 × 序列 × 词表大小的 logits，及其 fp32 上转副本和梯度。</translation>
    </message>
    <message>
        <source>Short-lived buffers: gathered shards, dequantized weights, step temporaries.</source>
        <translation>短时存在的缓冲区：聚合后的分片、反量化后的权重、优化步中的临时张量。</translation>
    </message>
    <message>
        <source>CUDA context, allocator reserve and communication buffers.</source>
        <translation>CUDA 上下文、分配器保留量和通信缓冲区。</translation>
    </message>
    <message>
        <source>fp32 (everything)</source>
        <translation>fp32（全部）</translation>
    </message>
    <message>
        <source>AMP bf16 (fp32 weights, bf16 compute)</source>
        <translation>AMP bf16（fp32 权重，bf16 计算）</translation>
    </message>
    <message>
        <source>AMP fp16 (fp32 weights, fp16 compute)</source>
        <translation>AMP fp16（fp32 权重，fp16 计算）</translation>
    </message>
    <message>
        <source>bf16 + fp32 master weights</source>
        <translation>bf16 + fp32 主权重副本</translation>
    </message>
    <message>
        <source>fp16 + fp32 master weights</source>
        <translation>fp16 + fp32 主权重副本</translation>
    </message>
    <message>
        <source>bf16 (pure)</source>
        <translation>bf16（纯）</translation>
    </message>
    <message>
        <source>fp16 (pure)</source>
        <translation>fp16（纯）</translation>
    </message>
    <message>
        <source>FSDP mixed bf16 (fp32 shards, bf16 compute)</source>
        <translation>FSDP 混合 bf16（fp32 分片，bf16 计算）</translation>
    </message>
    <message>
        <source>AdamW</source>
        <translation>AdamW</translation>
    </message>
    <message>
        <source>paged AdamW</source>
        <translation>分页 AdamW</translation>
    </message>
    <message>
        <source>paged 8-bit AdamW</source>
        <translation>分页 8 位 AdamW</translation>
    </message>
    <message>
        <source>SGD</source>
        <translation>SGD</translation>
    </message>
    <message>
        <source>SGD with momentum</source>
        <translation>带动量的 SGD</translation>
    </message>
    <message>
        <source>Lion</source>
        <translation>Lion</translation>
    </message>
    <message>
        <source>selective</source>
        <translation>选择性</translation>
    </message>
    <message>
        <source>full</source>
        <translation>完全</translation>
    </message>
    <message>
        <source>every n-th block</source>
        <translation>每 n 个块一次</translation>
    </message>
    <message>
        <source>auto (the planner chooses)</source>
        <translation>自动（由规划器选择）</translation>
    </message>
    <message>
        <source>FlashAttention</source>
        <translation>FlashAttention</translation>
    </message>
    <message>
        <source>SDPA</source>
        <translation>SDPA</translation>
    </message>
    <message>
        <source>eager</source>
        <translation>eager</translation>
    </message>
    <message>
        <source>standard cross-entropy</source>
        <translation>标准交叉熵</translation>
    </message>
    <message>
        <source>chunked cross-entropy</source>
        <translation>分块交叉熵</translation>
    </message>
    <message>
        <source>fused linear cross-entropy (Liger)</source>
        <translation>融合线性交叉熵（Liger）</translation>
    </message>
    <message>
        <source>Cut Cross-Entropy</source>
        <translation>Cut Cross-Entropy</translation>
    </message>
    <message>
        <source>ZeRO-1</source>
        <translation>ZeRO-1</translation>
    </message>
    <message>
        <source>ZeRO-2</source>
        <translation>ZeRO-2</translation>
    </message>
    <message>
        <source>ZeRO-3 / FSDP full shard</source>
        <translation>ZeRO-3 / FSDP 完全分片</translation>
    </message>
    <message>
        <source>optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>optimizer and parameters</source>
        <translation>优化器和参数</translation>
    </message>
    <message>
        <source>auto (the framework&apos;s)</source>
        <translation>自动（沿用框架默认）</translation>
    </message>
    <message>
        <source>DeepSpeed ZeRO</source>
        <translation>DeepSpeed ZeRO</translation>
    </message>
    <message>
        <source>FSDP1</source>
        <translation>FSDP1</translation>
    </message>
    <message>
        <source>FSDP2</source>
        <translation>FSDP2</translation>
    </message>
    <message>
        <source>Megatron</source>
        <translation>Megatron</translation>
    </message>
    <message>
        <source>adapters in their own units</source>
        <translation>适配器单独成单元</translation>
    </message>
    <message>
        <source>mixed with frozen weights</source>
        <translation>与冻结权重混在同一单元</translation>
    </message>
    <message>
        <source>NF4</source>
        <translation>NF4</translation>
    </message>
    <message>
        <source>NF4 + double quantization</source>
        <translation>NF4 + 双重量化</translation>
    </message>
    <message>
        <source>LLM.int8</source>
        <translation>LLM.int8</translation>
    </message>
    <message>
        <source>generic (transformers + PEFT)</source>
        <translation>通用（transformers + PEFT）</translation>
    </message>
    <message>
        <source>transformers Trainer</source>
        <translation>transformers Trainer</translation>
    </message>
    <message>
        <source>torchtune</source>
        <translation>torchtune</translation>
    </message>
    <message>
        <source>torchtitan</source>
        <translation>torchtitan</translation>
    </message>
    <message>
        <source>LitGPT (Lightning)</source>
        <translation>LitGPT（Lightning）</translation>
    </message>
    <message>
        <source>DeepSpeed</source>
        <translation>DeepSpeed</translation>
    </message>
    <message>
        <source>Megatron-LM</source>
        <translation>Megatron-LM</translation>
    </message>
    <message>
        <source>Unsloth</source>
        <translation>Unsloth</translation>
    </message>
    <message>
        <source>Axolotl</source>
        <translation>Axolotl</translation>
    </message>
    <message>
        <source>bf16</source>
        <translation>bf16</translation>
    </message>
    <message>
        <source>fp16</source>
        <translation>fp16</translation>
    </message>
    <message>
        <source>end of forward (the loss and its backward)</source>
        <translation>前向结束时（损失及其反向）</translation>
    </message>
    <message>
        <source>last layer&apos;s recomputation</source>
        <translation>最后一层的重计算</translation>
    </message>
    <message>
        <source>end of backward</source>
        <translation>反向结束时</translation>
    </message>
    <message>
        <source>optimizer step</source>
        <translation>优化器步骤</translation>
    </message>
    <message>
        <source>lowest cost</source>
        <translation>最低成本</translation>
    </message>
    <message>
        <source>shortest time</source>
        <translation>最短时间</translation>
    </message>
    <message>
        <source>balanced</source>
        <translation>均衡</translation>
    </message>
    <message>
        <source>typical for the card</source>
        <translation>该 GPU 的典型配置</translation>
    </message>
    <message>
        <source>InfiniBand 400 Gb/s</source>
        <translation>InfiniBand 400 Gb/s</translation>
    </message>
    <message>
        <source>RoCE 200 Gb/s</source>
        <translation>RoCE 200 Gb/s</translation>
    </message>
    <message>
        <source>100 GbE</source>
        <translation>100 GbE</translation>
    </message>
    <message>
        <source>25 GbE</source>
        <translation>25 GbE</translation>
    </message>
    <message>
        <source>%1 %2: %3 GB stated, %4 GiB usable, %5 TB/s, %6 BF16 TFLOPS dense%7</source>
        <translation>%1 %2：标称 %3 GB，可用 %4 GiB，%5 TB/s，稠密 BF16 %6 TFLOPS%7</translation>
    </message>
    <message>
        <source> (the scenario&apos;s GPU)</source>
        <translation>（场景所用 GPU）</translation>
    </message>
    <message>
        <source>%1 cards: %2</source>
        <translation>%1 个 GPU：%2</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Your layout</source>
        <translation>您的布局</translation>
    </message>
    <message>
        <source>Your scenario as set (its GPU count, sharding and parallelism) on this card: fits with the margin, tight (only the estimate fits), or does not fit.</source>
        <translation>您所设置的场景（其 GPU 数量、分片和并行方式）在此 GPU 上的情况：含余量可容纳、紧张（仅估算值能放下）或放不下。</translation>
    </message>
    <message>
        <source>Best on this card</source>
        <translation>此 GPU 上的最佳方案</translation>
    </message>
    <message>
        <source>What the planner would rent on this card: cards and layout by the objective (Plan tab).</source>
        <translation>规划器在此 GPU 上会租用的配置：按目标选出的 GPU 数量和并行布局（见规划选项卡）。</translation>
    </message>
    <message>
        <source>Wall time</source>
        <translation>总耗时</translation>
    </message>
    <message>
        <source>Wall time of the planner&apos;s choice for the Plan tab&apos;s dataset.</source>
        <translation>规划器所选方案在规划选项卡数据集上的总耗时。</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>成本</translation>
    </message>
    <message>
        <source>Cost of the planner&apos;s choice.</source>
        <translation>规划器所选方案的成本。</translation>
    </message>
    <message>
        <source>Yours per GPU</source>
        <translation>您的每 GPU 用量</translation>
    </message>
    <message>
        <source>Device memory per GPU with your layout (what nvidia-smi would show).</source>
        <translation>按您的布局，每 GPU 的设备显存（即 nvidia-smi 会显示的值）。</translation>
    </message>
    <message>
        <source>Headroom</source>
        <translation>余量</translation>
    </message>
    <message>
        <source>Share of the card&apos;s usable memory left free with your layout.</source>
        <translation>按您的布局，该 GPU 可用显存中剩余空闲的比例。</translation>
    </message>
    <message>
        <source>Largest micro-batch that fits one card, with the margin, at the current sequence length.</source>
        <translation>在当前序列长度下，含余量时单个 GPU 可容纳的最大微批次。</translation>
    </message>
    <message>
        <source>Longest sequence that fits one card, with the margin, at the current micro-batch.</source>
        <translation>在当前微批次下，含余量时单个 GPU 可容纳的最长序列。</translation>
    </message>
    <message>
        <source>Usable</source>
        <translation>可用</translation>
    </message>
    <message>
        <source>Memory a training process can use (GiB); the vendor&apos;s figure is in the GPU&apos;s tooltip.</source>
        <translation>训练进程可使用的显存（GiB）；厂商标称值见 GPU 的工具提示。</translation>
    </message>
    <message>
        <source>$/GPU-h</source>
        <translation>$/GPU 小时</translation>
    </message>
    <message>
        <source>Illustrative on-demand price per GPU-hour (catalog; prices vary).</source>
        <translation>示例性的按需价格，按每 GPU 小时计（来自目录；实际价格各异）。</translation>
    </message>
    <message>
        <source>▶ %1</source>
        <translation>▶ %1</translation>
    </message>
    <message>
        <source>%1 on %2</source>
        <translation>%2 张卡：%1</translation>
    </message>
    <message>
        <source>%1 per GPU with your layout; %2 margin kept</source>
        <translation>按您的布局每 GPU %1；保留 %2 余量</translation>
    </message>
    <message>
        <source>none up to %1</source>
        <translation>至 %1 为止均无</translation>
    </message>
    <message>
        <source>%1
Fewer cards (%2): %3</source>
        <translation>%1
更少 GPU（%2）：%3</translation>
    </message>
    <message>
        <source>%1 GiB</source>
        <translation>%1 GiB</translation>
    </message>
    <message>
        <source>Cards × layout</source>
        <translation>GPU 数量 × 并行布局</translation>
    </message>
    <message>
        <source>Cards and the layout the planner chose on this GPU, by the objective.</source>
        <translation>规划器按目标在此 GPU 上选定的 GPU 数量和并行布局。</translation>
    </message>
    <message>
        <source>Cost (spot)</source>
        <translation>成本（竞价实例）</translation>
    </message>
    <message>
        <source>Cost (on demand)</source>
        <translation>成本（按需）</translation>
    </message>
    <message>
        <source>GPU-hours</source>
        <translation>GPU 小时</translation>
    </message>
    <message>
        <source>Per GPU</source>
        <translation>每 GPU</translation>
    </message>
    <message>
        <source>Device memory per GPU (nvidia-smi), without the margin.</source>
        <translation>每 GPU 的设备显存（nvidia-smi），不含余量。</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>单步时间</translation>
    </message>
    <message>
        <source>Why fewer cards fail</source>
        <translation>为何更少 GPU 放不下</translation>
    </message>
    <message>
        <source>Below the smallest count that fits: the closest layout and why it does not fit.</source>
        <translation>低于可容纳的最小 GPU 数量时：最接近的并行布局及其放不下的原因。</translation>
    </message>
    <message>
        <source>On demand</source>
        <translation>按需</translation>
    </message>
    <message>
        <source>Spot</source>
        <translation>竞价实例</translation>
    </message>
    <message>
        <source>no fit up to %1 cards</source>
        <translation>最多 %1 个 GPU 均放不下</translation>
    </message>
    <message>
        <source>%1
%2</source>
        <translation>%1
%2</translation>
    </message>
    <message>
        <source>%1 × %2 (%3; %4, %5)</source>
        <translation>%1 × %2（%3；%4，%5）</translation>
    </message>
    <message>
        <source>No catalog card fits up to %1 cards.</source>
        <translation>在最多 %1 个 GPU 的情况下，目录中没有可容纳的 GPU。</translation>
    </message>
    <message>
        <source>Rent: %1 — %2. Cheapest: %3 · fastest: %4.</source>
        <translation>租用：%1 — %2。最便宜：%3 · 最快：%4。</translation>
    </message>
    <message>
        <source>%1: no layout fits up to %2 cards.</source>
        <translation>%1：最多 %2 个 GPU 均无可容纳的并行布局。</translation>
    </message>
    <message>
        <source>Closest: %1 × %2 — %3</source>
        <translation>最接近：%1 × %2 — %3</translation>
    </message>
    <message>
        <source>Fewer cards fail — %1</source>
        <translation>更少 GPU 放不下 — %1</translation>
    </message>
    <message>
        <source>Runner-up: %1 × %2 — %3.</source>
        <translation>次优：%1 × %2 — %3。</translation>
    </message>
    <message>
        <source>FSDP no shard</source>
        <translation>FSDP 不分片</translation>
    </message>
    <message>
        <source>data parallel</source>
        <translation>数据并行</translation>
    </message>
    <message>
        <source>distributed optimizer</source>
        <translation>分布式优化器</translation>
    </message>
    <message>
        <source>FSDP shard grad/op</source>
        <translation>FSDP 分片梯度/优化器状态</translation>
    </message>
    <message>
        <source>FSDP full shard</source>
        <translation>FSDP 完全分片</translation>
    </message>
    <message>
        <source>ZeRO-3</source>
        <translation>ZeRO-3</translation>
    </message>
    <message>
        <source>no checkpointing</source>
        <translation>无激活检查点</translation>
    </message>
    <message>
        <source>selective checkpointing</source>
        <translation>选择性激活检查点</translation>
    </message>
    <message>
        <source>full checkpointing</source>
        <translation>完全激活检查点</translation>
    </message>
    <message>
        <source>checkpointing every %1 blocks</source>
        <translation>每 %1 个块做一次激活检查点</translation>
    </message>
    <message>
        <source>experts over %1 ranks (EP)</source>
        <translation>专家分布在 %1 个 rank 上（EP）</translation>
    </message>
    <message>
        <source>offload optimizer</source>
        <translation>卸载优化器</translation>
    </message>
    <message>
        <source>offload optimizer and parameters</source>
        <translation>卸载优化器和参数</translation>
    </message>
    <message>
        <source>1 card</source>
        <translation>1 个 GPU</translation>
    </message>
    <message>
        <source>%1 cards</source>
        <translation>%1 个 GPU</translation>
    </message>
    <message>
        <source>micro-batch %1 × %2 steps</source>
        <translation>微批次 %1 × %2 步</translation>
    </message>
    <message>
        <source>micro-batch %1</source>
        <translation>微批次 %1</translation>
    </message>
    <message>
        <source>fits</source>
        <translation>放得下</translation>
    </message>
    <message>
        <source>tight</source>
        <translation>紧张</translation>
    </message>
    <message>
        <source>does not fit</source>
        <translation>放不下</translation>
    </message>
    <message>
        <source>needs %1 of host RAM per node, the node has %2</source>
        <translation>每个节点需要 %1 主机内存，而节点只有 %2</translation>
    </message>
    <message>
        <source>no valid layout at this count</source>
        <translation>该数量下没有有效的并行布局</translation>
    </message>
    <message>
        <source>more cards than the limit</source>
        <translation>GPU 数量超出上限</translation>
    </message>
    <message>
        <source>the global batch of %1 sequences does not split evenly over the data-parallel ranks</source>
        <translation>%1 个序列的全局批次无法在数据并行 rank 之间均匀划分</translation>
    </message>
    <message>
        <source>as cheap but slower by %1</source>
        <translation>同样便宜，但慢 %1</translation>
    </message>
    <message>
        <source>as fast but costs %1 more</source>
        <translation>同样快，但贵 %1</translation>
    </message>
    <message>
        <source>slower by %1 and costs %2 more</source>
        <translation>慢 %1，且贵 %2</translation>
    </message>
    <message>
        <source>faster by %1 but costs %2 more</source>
        <translation>快 %1，但贵 %2</translation>
    </message>
    <message>
        <source>saves %1 but takes %2 longer</source>
        <translation>节省 %1，但耗时多 %2</translation>
    </message>
    <message>
        <source>as good on both</source>
        <translation>两方面同样好</translation>
    </message>
    <message>
        <source>shortest wall time</source>
        <translation>总耗时最短</translation>
    </message>
    <message>
        <source>lowest cost among plans within %1× of the fastest wall time</source>
        <translation>在总耗时不超过最快方案 %1× 的方案中成本最低</translation>
    </message>
    <message>
        <source>NVLink</source>
        <translation>NVLink</translation>
    </message>
    <message>
        <source>Infinity Fabric</source>
        <translation>Infinity Fabric</translation>
    </message>
    <message>
        <source>on-chip RoCE</source>
        <translation>片上 RoCE</translation>
    </message>
    <message>
        <source>PCIe %1.0 x%2</source>
        <translation>PCIe %1.0 x%2</translation>
    </message>
    <message>
        <source>RoCE 200 Gb/s between nodes</source>
        <translation>节点间 RoCE 200 Gb/s</translation>
    </message>
    <message>
        <source>100 GbE between nodes</source>
        <translation>节点间 100 GbE</translation>
    </message>
    <message>
        <source>25 GbE between nodes</source>
        <translation>节点间 25 GbE</translation>
    </message>
    <message>
        <source>InfiniBand 400 Gb/s between nodes</source>
        <translation>节点间 InfiniBand 400 Gb/s</translation>
    </message>
    <message>
        <source>fp16 instead of bf16 (this card has no bf16): use loss scaling</source>
        <translation>用 fp16 代替 bf16（此 GPU 不支持 bf16）：需使用损失缩放</translation>
    </message>
    <message>
        <source>host RAM %1 per node (of %2)</source>
        <translation>每节点主机内存 %1（共 %2）</translation>
    </message>
    <message>
        <source>, </source>
        <translation>，</translation>
    </message>
    <message>
        <source>%1 per GPU + %2 margin = %3 &gt; %4 usable; largest part: %5, %6</source>
        <translation>每 GPU %1 + 余量 %2 = %3 &gt; 可用 %4；最大部分：%5，%6</translation>
    </message>
    <message>
        <source>Full</source>
        <translation>全参数</translation>
    </message>
    <message>
        <source>No GPU chosen: the chart&apos;s line is the %1 (%2 usable), for comparison. Choose a GPU for a verdict on it.</source>
        <translation>未选择 GPU：图中的参考线是 %1（可用 %2），仅供对比。选择一个 GPU 即可得到是否放得下的结论。</translation>
    </message>
    <message>
        <source>No GPU chosen. Choose a GPU for a verdict on it.</source>
        <translation>未选择 GPU。选择一个 GPU 即可得到是否放得下的结论。</translation>
    </message>
    <message>
        <source>sequence length %1 → %2</source>
        <translation>序列长度 %1 → %2</translation>
    </message>
    <message>
        <source>gradient checkpointing none → selective</source>
        <translation>梯度检查点 无 → 选择性</translation>
    </message>
    <message>
        <source>gradient checkpointing → full</source>
        <translation>梯度检查点 → 完整</translation>
    </message>
    <message>
        <source>attention eager → SDPA (FlashAttention kernel)</source>
        <translation>注意力 eager → SDPA（FlashAttention 内核）</translation>
    </message>
    <message>
        <source>optimizer AdamW → 8-bit AdamW (bitsandbytes)</source>
        <translation>优化器 AdamW → 8 位 AdamW（bitsandbytes）</translation>
    </message>
    <message>
        <source>optimizer → Adafactor (factored, no momentum)</source>
        <translation>优化器 → Adafactor（因子分解，无动量）</translation>
    </message>
    <message>
        <source>full fine-tuning → LoRA r%1</source>
        <translation>全参数微调 → LoRA r%1</translation>
    </message>
    <message>
        <source>→ QLoRA (4-bit NF4 base)</source>
        <translation>→ QLoRA（4 位 NF4 基座）</translation>
    </message>
    <message>
        <source>more cards: none up to %1 × %2 fits</source>
        <translation>更多 GPU：直到 %1 × %2 都放不下</translation>
    </message>
    <message>
        <source>%1 × %2 with the planner&apos;s layout</source>
        <translation>%1 × %2，采用规划器的并行布局</translation>
    </message>
    <message>
        <source>%1 needs more than %2 with %3: its vocabulary of %4 tokens against %5 makes its logits (batch × sequence × vocabulary) larger.</source>
        <translation>采用%3时 %1 所需比 %2 更多：它的词表有 %4 个 token（对方为 %5），因此 logits（批次 × 序列 × 词表）更大。</translation>
    </message>
    <message>
        <source>With %1 data-parallel GPUs and no sharding every GPU holds the whole model, its gradients and optimizer states, plus DDP&apos;s gradient buckets and NCCL&apos;s buffers: per-GPU memory is higher than on one GPU. ZeRO/FSDP sharding divides the model states.</source>
        <translation>数据并行 %1 个 GPU 且不分片时，每个 GPU 都持有完整的模型、梯度和优化器状态，另加 DDP 的梯度桶和 NCCL 缓冲区：每 GPU 显存比单 GPU 时更高。ZeRO/FSDP 分片可以切分这些模型状态。</translation>
    </message>
    <message>
        <source>too many levels of symbolic links</source>
        <translation>符号链接层数过多</translation>
    </message>
    <message>
        <source>is a folder: give a file name</source>
        <translation>是一个文件夹：请给出文件名</translation>
    </message>
    <message>
        <source>exists and is not a regular file (a device or a pipe); choose a file</source>
        <translation>已存在且不是普通文件（设备或管道）；请选择一个文件</translation>
    </message>
    <message>
        <source>more than a petabyte per GPU: not sized</source>
        <translation>每块 GPU 超过 1 PB：不做估算</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is a probability: at least 0 and below 1</source>
        <translation>&apos;%1&apos; 是概率：至少为 0 且小于 1</translation>
    </message>
    <message>
        <source>must be a JSON object</source>
        <translation>必须是 JSON 对象</translation>
    </message>
    <message>
        <source>&apos;metadata.total_size&apos; must be a whole number of bytes between 1 MiB and 100 TB</source>
        <translation>&apos;metadata.total_size&apos; 必须是 1 MiB 到 100 TB 之间的整数字节数</translation>
    </message>
    <message>
        <source>holds a number too large for any field (%1)</source>
        <translation>含有任何字段都容纳不了的过大数字（%1）</translation>
    </message>
    <message>
        <source>sequence length x micro-batch is too large for this model: one GPU would need more than a petabyte; lower seq_len or micro_batch</source>
        <translation>对该模型而言，序列长度 × 微批次过大：单块 GPU 需要超过 1 PB；请降低 seq_len 或 micro_batch</translation>
    </message>
    <message>
        <source>num_experts_per_tok = %1 must be between 1 and the number of experts (%2)</source>
        <translation>num_experts_per_tok = %1 必须介于 1 与专家数（%2）之间</translation>
    </message>
    <message>
        <source>the shape gives more than 100 trillion parameters: no run is planned for a model that large</source>
        <translation>该形状的参数超过 100 万亿：不为如此大的模型规划训练</translation>
    </message>
    <message>
        <source>GPUSIZER_CATALOG_DIR names a file, not a folder: no user catalogs were read</source>
        <translation>GPUSIZER_CATALOG_DIR 指向的是文件而不是文件夹：未读取任何用户目录</translation>
    </message>
    <message>
        <source>not valid JSON (a NUL byte at offset %1: not a text file)</source>
        <translation>不是有效的 JSON（偏移 %1 处有 NUL 字节：不是文本文件）</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not one of: marketplace, neocloud, hyperscaler</source>
        <translation>&apos;%1&apos; 不是以下之一：marketplace、neocloud、hyperscaler</translation>
    </message>
    <message>
        <source>does not finish</source>
        <translation>无法完成</translation>
    </message>
    <message>
        <source>Part of the bill</source>
        <translation>账单项目</translation>
    </message>
    <message>
        <source>Spot (expected)</source>
        <translation>竞价（期望）</translation>
    </message>
    <message>
        <source>With the expected interruptions: each loses half a checkpoint interval and the restart</source>
        <translation>计入期望的中断：每次损失半个检查点间隔和重启时间</translation>
    </message>
    <message>
        <source>Wall time (checkpoints and interruptions included)</source>
        <translation>实际耗时（含检查点与中断）</translation>
    </message>
    <message>
        <source>GPU time</source>
        <translation>GPU 时间</translation>
    </message>
    <message>
        <source>of which writing checkpoints (%1 each, every %2)</source>
        <translation>其中写检查点（每个 %1，每 %2 一次）</translation>
    </message>
    <message>
        <source>Interruptions expected</source>
        <translation>期望中断次数</translation>
    </message>
    <message>
        <source>too many</source>
        <translation>过多</translation>
    </message>
    <message>
        <source>Traffic out: the result and the checkpoints, %1</source>
        <translation>出站流量：结果与检查点，%1</translation>
    </message>
    <message>
        <source>as set; Young&apos;s optimum on spot is %1</source>
        <translation>按设定；竞价下 Young 最优间隔为 %1</translation>
    </message>
    <message>
        <source>Young&apos;s optimum √(2 × write time × %1 between interruptions), at least 10 minutes</source>
        <translation>Young 最优间隔 √(2 × 写入时间 × 中断间隔 %1)，至少 10 分钟</translation>
    </message>
    <message>
        <source>no interruptions expected: one checkpoint at the end</source>
        <translation>预计无中断：只在结束时保存一个检查点</translation>
    </message>
    <message>
        <source>Checkpoint every %1 (%2): each write of %3 takes %4 (writing nodes: %5), %6 of the run; save at least as often as the progress you can afford to lose.</source>
        <translation>每 %1 保存一次检查点（%2）：每次写入 %3 需 %4（写入节点数：%5），占训练的 %6；保存频率至少要与你能承受损失的进度相当。</translation>
    </message>
    <message>
        <source>a rate of %1 per node-day, one interruption every %2 for the run (nodes: %3)</source>
        <translation>每节点每天 %1 次的中断率，整个训练每 %2 中断一次（节点数：%3）</translation>
    </message>
    <message>
        <source>Spot does not pay: at %1, each interruption costs more than the run gains between two of them (one node&apos;s preemption stops every node) — rent on demand, or fewer, larger nodes.</source>
        <translation>竞价不划算：在 %1 下，每次中断损失的比两次中断之间取得的进度还多（一个节点被抢占会停下所有节点）——请按需租用，或使用更少、更大的节点。</translation>
    </message>
    <message>
        <source>Spot does not pay: at %1 it is expected to take %2 and cost %3, against %4 and %5 on demand.</source>
        <translation>竞价不划算：在 %1 下预计耗时 %2、花费 %3，而按需为 %4 和 %5。</translation>
    </message>
    <message>
        <source>Spot: at %1, expected %2 and %3 (interruptions expected: %4), against %5 and %6 on demand: it saves %7.</source>
        <translation>竞价：在 %1 下，预计 %2、%3（期望中断次数：%4），按需为 %5 和 %6：节省 %7。</translation>
    </message>
    <message>
        <source>Copy the checkpoints and the result out: %1, %2 in traffic (stored meanwhile at %3 a day).</source>
        <translation>把检查点和结果复制出来：%1，流量费 %2（期间存储费每天 %3）。</translation>
    </message>
    <message>
        <source>Verify the copies (load them, compare checksums) before deleting anything: each hour the cards stay up costs %1.</source>
        <translation>删除任何东西之前先验证副本（加载、比对校验和）：显卡每多开一小时花费 %1。</translation>
    </message>
    <message>
        <source>Destroy the instance: stopped, its disks (%1) still cost %2 a day; only destroying it ends the bill.</source>
        <translation>销毁实例：仅停止时其磁盘（%1）每天仍需 %2；只有销毁才会结束计费。</translation>
    </message>
    <message>
        <source>marketplace</source>
        <translation>市场平台</translation>
    </message>
    <message>
        <source>neocloud</source>
        <translation>新兴 GPU 云</translation>
    </message>
    <message>
        <source>hyperscaler</source>
        <translation>超大规模云</translation>
    </message>
    <message>
        <source>unstated</source>
        <translation>未注明</translation>
    </message>
    <message>
        <source>Prices for %1: %2 list prices, undated: check before renting.</source>
        <translation>%1 的价格：%2 标价，无日期：租用前请核实。</translation>
    </message>
    <message>
        <source>less than two months old</source>
        <translation>不到两个月</translation>
    </message>
    <message>
        <source>%1 months old</source>
        <translation>已有 %1 个月</translation>
    </message>
    <message>
        <source>Prices for %1 as of %2 (%3 on %4), %5 list prices, illustrative: check the provider before renting (a prices*.json in your catalog folder overrides them).</source>
        <translation>%1 的价格截至 %2（到 %4 %3），%5 标价，仅供参考：租用前请向服务商核实（目录文件夹中的 prices*.json 可覆盖它们）。</translation>
    </message>
    <message>
        <source>no GPU &apos;%1&apos; in the catalog</source>
        <translation>目录中没有 GPU &apos;%1&apos;</translation>
    </message>
    <message>
        <source>Stopped, not destroyed: its disks (%1) per day</source>
        <translation>停止而未销毁：其磁盘（%1）每天</translation>
    </message>
    <message>
        <source>Total (destroyed when done)</source>
        <translation>合计（完成后销毁）</translation>
    </message>
    <message>
        <source>Storage: retained checkpoints (%1) until the run&apos;s end + %2 d</source>
        <translation>存储：保留的检查点（%1）直到训练结束后 %2 天</translation>
    </message>
    <message>
        <source>as set</source>
        <translation>按设定</translation>
    </message>
    <message>
        <source>This card has no spot price in the catalog: on demand only.</source>
        <translation>目录中此显卡没有竞价价格：只能按需租用。</translation>
    </message>
    <message>
        <source>Spot, with no interruptions assumed: %1 and %2, against %3 on demand (set the offer&apos;s interruption rate for a real expectation).</source>
        <translation>竞价，假定无中断：%1、%2，按需为 %3（请设置该报价的中断率以得到真实的期望）。</translation>
    </message>
    <message>
        <source>about %1 steps</source>
        <translation>约 %1 步</translation>
    </message>
    <message>
        <source>Finish the run%1: %2 of GPU time over %3 (checkpoints written: about %4).</source>
        <translation>完成训练%1：%3 内花费 %2 的 GPU 时间（写入检查点：约 %4 个）。</translation>
    </message>
    <message>
        <source> on demand (spot would not finish or is not offered)</source>
        <translation>（按需：竞价无法完成或未提供）</translation>
    </message>
    <message>
        <source>expands to too many values or nests too deep (aliases?)</source>
        <translation>展开后的值过多或嵌套过深（是否使用了别名？）</translation>
    </message>
    <message>
        <source>an escape in this value is not valid UTF-8</source>
        <translation>此值中的转义序列不是有效的 UTF-8</translation>
    </message>
    <message>
        <source>a key must be plain text</source>
        <translation>键必须是纯文本</translation>
    </message>
    <message>
        <source>an escape in this key is not valid UTF-8</source>
        <translation>此键中的转义序列不是有效的 UTF-8</translation>
    </message>
    <message>
        <source>not a text file (a NUL byte at offset %1)</source>
        <translation>不是文本文件（偏移量 %1 处有 NUL 字节）</translation>
    </message>
    <message>
        <source>not a text file (invalid UTF-8 at offset %1)</source>
        <translation>不是文本文件（偏移量 %1 处有无效的 UTF-8）</translation>
    </message>
    <message>
        <source>not valid YAML (%1)</source>
        <translation>不是有效的 YAML（%1）</translation>
    </message>
    <message>
        <source>not a training config: the file is not a mapping of keys</source>
        <translation>不是训练配置：该文件不是键的映射</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>Free text kept with the scenario (an imported training config&apos;s import report).</source>
        <translation>随场景保存的自由文本（导入的训练配置的导入报告）。</translation>
    </message>
    <message>
        <source>override &apos;%1&apos; is not key=value or ~key</source>
        <translation>覆盖项 &apos;%1&apos; 不是 key=value 或 ~key 形式</translation>
    </message>
    <message>
        <source>DeepSpeed casts the whole module, adapters included, to the 16-bit dtype: adapters sized in that dtype</source>
        <translation>DeepSpeed 会将整个模块（包括适配器）转换为 16 位 dtype：适配器按该 dtype 估算</translation>
    </message>
    <message>
        <source>weights loaded in %1, mixed precision %2%3</source>
        <translation>权重以 %1 加载，混合精度 %2%3</translation>
    </message>
    <message>
        <source>catalog model %1</source>
        <translation>目录模型 %1</translation>
    </message>
    <message>
        <source>a quantized base needs an adapter (LoRA): full fine-tuning of a 4- or 8-bit model is not a run transformers trains</source>
        <translation>量化基座模型需要适配器（LoRA）：transformers 不支持对 4 位或 8 位模型进行全参数微调</translation>
    </message>
    <message>
        <source>accumulation = global batch / (devices × micro-batch) = %1</source>
        <translation>梯度累积 = 全局批次 / (设备数 × 微批次) = %1</translation>
    </message>
    <message>
        <source>no training config given</source>
        <translation>未提供训练配置</translation>
    </message>
    <message>
        <source>replaces %1 from %2</source>
        <translation>替换来自 %2 的 %1</translation>
    </message>
    <message>
        <source>must be true or false</source>
        <translation>必须为 true 或 false</translation>
    </message>
    <message>
        <source>must be a whole number</source>
        <translation>必须为整数</translation>
    </message>
    <message>
        <source>must be a number</source>
        <translation>必须为数字</translation>
    </message>
    <message>
        <source>must be text</source>
        <translation>必须为文本</translation>
    </message>
    <message>
        <source>must be a list of names</source>
        <translation>必须为名称列表</translation>
    </message>
    <message>
        <source>does not change GPU memory (schedule, data, logging or output)</source>
        <translation>不影响 GPU 显存（调度、数据、日志或输出）</translation>
    </message>
    <message>
        <source>not read by GPU Sizer (docs/import.md lists what is)</source>
        <translation>GPU Sizer 不读取此项（docs/import.md 列出了会读取的项）</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a linear module GPU Sizer knows</source>
        <translation>&apos;%1&apos; 不是 GPU Sizer 已知的线性模块</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not sized (only lm_head and embed_tokens are)</source>
        <translation>&apos;%1&apos; 不计入估算（仅计入 lm_head 和 embed_tokens）</translation>
    </message>
    <message>
        <source>sized as flash-attention (no s² scores kept either)</source>
        <translation>按 flash-attention 估算（同样不保留 s² 注意力分数）</translation>
    </message>
    <message>
        <source>attention &apos;%1&apos; is not one GPU Sizer knows</source>
        <translation>注意力实现 &apos;%1&apos; 不是 GPU Sizer 已知的实现</translation>
    </message>
    <message>
        <source>not a bucket size (a number of elements or &quot;auto&quot;)</source>
        <translation>不是有效的桶大小（应为元素个数或 &quot;auto&quot;）</translation>
    </message>
    <message>
        <source>optimizer &apos;%1&apos; is not modelled: sized as AdamW (two fp32 states, an upper bound for 8-bit and factored optimizers)</source>
        <translation>未对优化器 &apos;%1&apos; 建模：按 AdamW 估算（两个 fp32 状态，是 8 位优化器和分解式优化器的上限）</translation>
    </message>
    <message>
        <source>sharding strategy &apos;%1&apos; is not an FSDP one</source>
        <translation>分片策略 &apos;%1&apos; 不是 FSDP 的分片策略</translation>
    </message>
    <message>
        <source>only models that call deepspeed.checkpointing use it; Hugging Face models checkpoint through gradient_checkpointing</source>
        <translation>只有调用 deepspeed.checkpointing 的模型才会使用它；Hugging Face 模型通过 gradient_checkpointing 进行激活检查点</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a GPU layout GPU Sizer sizes (NO, MULTI_GPU, DEEPSPEED, FSDP)</source>
        <translation>&apos;%1&apos; 不是 GPU Sizer 可估算的 GPU 并行布局（NO，MULTI_GPU，DEEPSPEED，FSDP）</translation>
    </message>
    <message>
        <source>packed: every row is the full sequence length</source>
        <translation>样本打包：每行均为完整序列长度</translation>
    </message>
    <message>
        <source>TrainingArguments carry no sequence length: GPU Sizer&apos;s default (set it in the window or the scenario)</source>
        <translation>TrainingArguments 不含序列长度：采用 GPU Sizer 的默认值（可在窗口或场景中设置）</translation>
    </message>
    <message>
        <source>does not change GPU memory</source>
        <translation>不影响 GPU 显存</translation>
    </message>
    <message>
        <source>fp4 stores the same 4 bits and block constants as NF4</source>
        <translation>fp4 与 NF4 存储相同的 4 位数据和块常数</translation>
    </message>
    <message>
        <source>a quantized base needs an adapter (Axolotl&apos;s validate_adapter refuses it)</source>
        <translation>量化基座模型需要适配器（Axolotl 的 validate_adapter 会拒绝此配置）</translation>
    </message>
    <message>
        <source>adapter &apos;%1&apos; is not one GPU Sizer sizes (lora, qlora)</source>
        <translation>适配器 &apos;%1&apos; 不是 GPU Sizer 可估算的类型（lora，qlora）</translation>
    </message>
    <message>
        <source>packed: every row is sequence_len tokens long</source>
        <translation>样本打包：每行长度均为 sequence_len 个 token</translation>
    </message>
    <message>
        <source>has no effect without axolotl.integrations.liger.LigerPlugin in plugins</source>
        <translation>若 plugins 中没有 axolotl.integrations.liger.LigerPlugin，则不起作用</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not one GPU Sizer sizes (lora, full, freeze)</source>
        <translation>&apos;%1&apos; 不是 GPU Sizer 可估算的类型（lora，full，freeze）</translation>
    </message>
    <message>
        <source>sized as bitsandbytes quantization of the same width</source>
        <translation>按相同位宽的 bitsandbytes 量化估算</translation>
    </message>
    <message>
        <source>packed: every row is cutoff_len tokens long</source>
        <translation>样本打包：每行长度均为 cutoff_len 个 token</translation>
    </message>
    <message>
        <source>a torchtune recipe names its model builder</source>
        <translation>torchtune 的 recipe 需要指明其模型构建器</translation>
    </message>
    <message>
        <source>the LoRA builders need lora_attn_modules</source>
        <translation>LoRA 构建器需要 lora_attn_modules</translation>
    </message>
    <message>
        <source>null: torchtune pads each batch to its longest sample; GPU Sizer&apos;s default length is sized (set yours)</source>
        <translation>null：torchtune 会将每个批次填充到其中最长样本的长度；按 GPU Sizer 的默认长度估算（请自行设置）</translation>
    </message>
    <message>
        <source>packed: every row is max_seq_len tokens long</source>
        <translation>样本打包：每行长度均为 max_seq_len 个 token</translation>
    </message>
    <message>
        <source>not modelled: sized as AdamW</source>
        <translation>未建模：按 AdamW 估算</translation>
    </message>
    <message>
        <source>torchtune trains in bf16 or fp32</source>
        <translation>torchtune 以 bf16 或 fp32 训练</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a Lightning precision</source>
        <translation>&apos;%1&apos; 不是 Lightning 的精度设置</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a LitGPT quantization</source>
        <translation>&apos;%1&apos; 不是 LitGPT 的量化方式</translation>
    </message>
    <message>
        <source>null: LitGPT trains at the longest sample&apos;s length; GPU Sizer&apos;s default length is sized (set yours)</source>
        <translation>null：LitGPT 按最长样本的长度训练；按 GPU Sizer 的默认长度估算（请自行设置）</translation>
    </message>
    <message>
        <source>Liger RMSNorm</source>
        <translation>Liger RMSNorm</translation>
    </message>
    <message>
        <source>Liger&apos;s fused RMSNorm saves its 16-bit input and one fp32 value per token instead of the fp32 upcast.</source>
        <translation>Liger 的融合 RMSNorm 只保存 16 位输入和每个 token 一个 fp32 值，而不是上转为 fp32 的输入。</translation>
    </message>
    <message>
        <source>Liger SwiGLU / GeGLU</source>
        <translation>Liger SwiGLU / GeGLU</translation>
    </message>
    <message>
        <source>Liger&apos;s fused gated activation saves the gate and up outputs and recomputes the activation: one intermediate-sized tensor less per layer.</source>
        <translation>Liger 的融合门控激活只保存 gate 和 up 的输出并在反向时重算激活：每层少一个中间维度大小的张量。</translation>
    </message>
    <message>
        <source>Liger RoPE</source>
        <translation>Liger RoPE</translation>
    </message>
    <message>
        <source>Liger&apos;s rotary embedding kernel is faster; it keeps what eager RoPE keeps (cos and sin), so memory does not change.</source>
        <translation>Liger 的旋转位置编码内核更快；它保存的与 eager RoPE 相同（cos 和 sin），因此显存不变。</translation>
    </message>
    <message>
        <source>not modelled: Liger&apos;s LayerNorm and its cross-entropy over full logits are sized as the standard ones</source>
        <translation>未建模：Liger 的 LayerNorm 及其基于完整 logits 的交叉熵按标准实现估算</translation>
    </message>
    <message>
        <source>Liger kernels</source>
        <translation>Liger 内核</translation>
    </message>
    <message>
        <source>none: faster as well; needs the liger-kernel package and a model architecture it patches</source>
        <translation>无：还会更快；需要 liger-kernel 包以及它支持替换的模型架构</translation>
    </message>
    <message>
        <source>no RMSNorm or gated MLP to replace</source>
        <translation>没有可替换的 RMSNorm 或门控 MLP</translation>
    </message>
    <message>
        <source>Liger&apos;s fused RMSNorm and gated activation (apply_liger_kernel)</source>
        <translation>Liger 的融合 RMSNorm 和门控激活（apply_liger_kernel）</translation>
    </message>
    <message>
        <source>cannot remove &apos;%1&apos;: the file has no such key</source>
        <translation>无法删除“%1”：文件中没有这个键</translation>
    </message>
    <message>
        <source>the file it names, read</source>
        <translation>已读取它引用的文件</translation>
    </message>
    <message>
        <source>cannot find the file it names (tried %1)</source>
        <translation>找不到它引用的文件（已尝试 %1）</translation>
    </message>
    <message>
        <source>TRL&apos;s SFTTrainer casts the adapters of a quantized model to bf16 (trl trainer/sft_trainer.py:1127-1130)</source>
        <translation>TRL 的 SFTTrainer 会把量化模型的适配器转为 bf16（trl trainer/sft_trainer.py:1127-1130）</translation>
    </message>
    <message>
        <source>the files say %1 GPUs: their count is kept</source>
        <translation>文件指定了 %1 个 GPU：保留文件中的数量</translation>
    </message>
    <message>
        <source>LitGPT quantizes only on one device (finetune/lora.py raises NotImplementedError)</source>
        <translation>LitGPT 只支持在单个设备上量化（finetune/lora.py 会抛出 NotImplementedError）</translation>
    </message>
    <message>
        <source>the files shard over GPUs but name no count: 1 GPU assumed (set the launch&apos;s count: --gpus, or GPUs in the window)</source>
        <translation>文件在多个 GPU 上分片，但没有给出数量：按 1 个 GPU 估算（请设置启动时的数量：--gpus，或窗口中的 GPU 数量）</translation>
    </message>
    <message>
        <source>names no module GPU Sizer knows (q_proj, v_proj, … or all-linear)</source>
        <translation>没有指定 GPU Sizer 认识的模块（q_proj、v_proj、… 或 all-linear）</translation>
    </message>
    <message>
        <source>a regular expression: the module names it spells are taken, in every layer</source>
        <translation>这是一个正则表达式：取其中写出的模块名，应用于每一层</translation>
    </message>
    <message>
        <source>a hub kernel GPU Sizer does not know: sized as SDPA</source>
        <translation>GPU Sizer 不认识的 Hub 内核：按 SDPA 估算</translation>
    </message>
    <message>
        <source>parameter offload needs ZeRO stage 3: not applied</source>
        <translation>参数卸载需要 ZeRO 第 3 阶段：未应用</translation>
    </message>
    <message>
        <source>differs from the Trainer&apos;s bf16 / fp16, which transformers refuses (trainer_config_finalize): the Trainer&apos;s is sized</source>
        <translation>与 Trainer 的 bf16 / fp16 不一致，transformers 会拒绝（trainer_config_finalize）：按 Trainer 的设置估算</translation>
    </message>
    <message>
        <source>the Trainer&apos;s bf16 / fp16 overrides it</source>
        <translation>被 Trainer 的 bf16 / fp16 覆盖</translation>
    </message>
    <message>
        <source>null: no truncation, the longest sample&apos;s length; GPU Sizer&apos;s default length is sized (set yours)</source>
        <translation>null：不截断，即最长样本的长度；按 GPU Sizer 的默认长度估算（请设置你的长度）</translation>
    </message>
    <message>
        <source>must be a path or a DeepSpeed config</source>
        <translation>必须是路径或 DeepSpeed 配置</translation>
    </message>
    <message>
        <source>no sharding strategy in it: FSDP is off</source>
        <translation>其中没有分片策略：FSDP 未启用</translation>
    </message>
    <message>
        <source>only bitsandbytes quantization is read: the weights are sized unquantized</source>
        <translation>只读取 bitsandbytes 量化：权重按未量化估算</translation>
    </message>
    <message>
        <source>does not change the stored weights&apos; size</source>
        <translation>不改变所存权重的大小</translation>
    </message>
    <message>
        <source>no adapter: full fine-tuning</source>
        <translation>没有适配器：全参数微调</translation>
    </message>
    <message>
        <source>LitGPT refuses quantization with a mixed precision: set precision to bf16-true</source>
        <translation>LitGPT 不允许量化与混合精度同时使用：请把 precision 设为 bf16-true</translation>
    </message>
    <message>
        <source>not modelled: every layer is sized with rank r on every target</source>
        <translation>未建模：每一层的每个目标都按秩 r 估算</translation>
    </message>
    <message>
        <source>DoRA: a trainable magnitude per output row; each adapted module keeps its base and LoRA outputs for backward, and its forward forms B·A and W + s·B·A (%1 GiB for the largest layer, freed before the next).</source>
        <translation>DoRA：每个输出行一个可训练的幅度；每个适配模块为反向传播保留其基础输出和 LoRA 输出，前向时构造 B·A 和 W + s·B·A（最大的层为 %1 GiB，在下一层之前释放）。</translation>
    </message>
    <message>
        <source>LoRA-FA: lora_A frozen (no gradient or optimizer state, its input not saved); only lora_B trains.</source>
        <translation>LoRA-FA：lora_A 冻结（无梯度和优化器状态，不保存其输入）；只训练 lora_B。</translation>
    </message>
    <message>
        <source>VeRA: one shared frozen pair of random matrices (fp32, rank %1); two trainable scaling vectors per adapted module.</source>
        <translation>VeRA：一对共享的冻结随机矩阵（fp32，秩 %1）；每个适配模块两个可训练的缩放向量。</translation>
    </message>
    <message>
        <source>IA3: one trainable scaling vector per adapted module (down_proj scales its input, the others their output); the rank is unused.</source>
        <translation>IA3：每个适配模块一个可训练的缩放向量（down_proj 缩放其输入，其余缩放其输出）；不使用秩。</translation>
    </message>
    <message>
        <source>LayerNorm tuning: trainable copies of every norm; the norms keep their normalised output for the weight&apos;s gradient; no adapters on linears.</source>
        <translation>LayerNorm 微调：每个归一化层的可训练副本；归一化层为权重梯度保留归一化后的输出；线性层上没有适配器。</translation>
    </message>
    <message>
        <source>Adapter</source>
        <translation>适配器</translation>
    </message>
    <message>
        <source>Which adapter trains on the frozen base: LoRA; DoRA (adds a magnitude per output row and keeps two more tensors per adapted module, slower); LoRA-FA (A frozen: no gradient or state for A); VeRA (shared frozen random matrices, two scaling vectors per module); IA3 (one scaling vector per module); LayerNorm tuning (trainable copies of the norms, no adapters on linears).</source>
        <translation>在冻结的基础模型上训练哪种适配器：LoRA；DoRA（每个输出行增加一个幅度，每个适配模块多保留两个张量，更慢）；LoRA-FA（A 冻结：A 无梯度和状态）；VeRA（共享的冻结随机矩阵，每个模块两个缩放向量）；IA3（每个模块一个缩放向量）；LayerNorm 微调（归一化层的可训练副本，线性层上没有适配器）。</translation>
    </message>
    <message>
        <source>LoRA rank r: each adapted linear adds r × (in + out) trainable parameters (LoRA-FA r × out; VeRA r + out, its shared rank).</source>
        <translation>LoRA 秩 r：每个适配的线性层增加 r × (输入 + 输出) 个可训练参数（LoRA-FA 为 r × 输出；VeRA 为 r + 输出，r 为其共享秩）。</translation>
    </message>
    <message>
        <source>changes the checkpoint, not GPU memory</source>
        <translation>改变检查点，不改变 GPU 内存</translation>
    </message>
    <message>
        <source>sized as PEFT&apos;s default: every norm of the decoder and the final norm</source>
        <translation>按 PEFT 的默认值估算：解码器的每个归一化层和最终归一化层</translation>
    </message>
    <message>
        <source>sized as PEFT&apos;s Llama mapping: down_proj scales its input, the others their output</source>
        <translation>按 PEFT 的 Llama 映射估算：down_proj 缩放其输入，其余缩放其输出</translation>
    </message>
    <message>
        <source>not modelled: sized as LoRA (LoRA, DoRA, VeRA, IA3 and LayerNorm tuning are)</source>
        <translation>未建模：按 LoRA 估算（已建模的是 LoRA、DoRA、VeRA、IA3 和 LayerNorm 微调）</translation>
    </message>
    <message>
        <source>adapters on lm_head or embed_tokens are sized for LoRA only, not for %1; train them with modules_to_save instead</source>
        <translation>lm_head 或 embed_tokens 上的适配器只对 LoRA 估算，不对 %1 估算；请改用 modules_to_save 训练它们</translation>
    </message>
    <message>
        <source>DoRA</source>
        <translation>DoRA</translation>
    </message>
    <message>
        <source>LoRA-FA (A frozen)</source>
        <translation>LoRA-FA（A 冻结）</translation>
    </message>
    <message>
        <source>VeRA</source>
        <translation>VeRA</translation>
    </message>
    <message>
        <source>IA3</source>
        <translation>IA3</translation>
    </message>
    <message>
        <source>LayerNorm tuning</source>
        <translation>LayerNorm 微调</translation>
    </message>
    <message>
        <source>LayerNorm tuning of every norm</source>
        <translation>对每个归一化层做 LayerNorm 微调</translation>
    </message>
    <message>
        <source>%1 r%2 on %3</source>
        <translation>%1 r%2，作用于 %3</translation>
    </message>
    <message>
        <source>QLoRA (%1): %2</source>
        <translation>QLoRA（%1）：%2</translation>
    </message>
    <message>
        <source>%1 scaling vectors on %2</source>
        <translation>%1 缩放向量，作用于 %2</translation>
    </message>
    <message>
        <source>Trainable layers</source>
        <translation>可训练层数</translation>
    </message>
    <message>
        <source>Train only the last n decoder layers and freeze the rest, embeddings and lm_head (LLaMA-Factory freeze tuning); 0 trains every weight. Without checkpointing the frozen layers keep nothing for backward.</source>
        <translation>只训练最后 n 个解码器层，冻结其余层、嵌入层和 lm_head（LLaMA-Factory 冻结微调）；0 表示训练全部权重。不使用检查点时，冻结层不为反向传播保留任何内容。</translation>
    </message>
    <message>
        <source>Trained layers in fp32</source>
        <translation>训练层使用 fp32</translation>
    </message>
    <message>
        <source>Freeze tuning: the trained layers are cast to fp32 (with fp32 gradients and optimizer states) beside the frozen ones in the precision&apos;s dtype, as LLaMA-Factory does unless pure_bf16.</source>
        <translation>冻结微调：训练层转换为 fp32（梯度和优化器状态也为 fp32），冻结层保持精度设置的数据类型，与 LLaMA-Factory 在未设 pure_bf16 时的做法相同。</translation>
    </message>
    <message>
        <source>the first layers train: sized as the same number of last layers (the frozen layers above them are then in the graph too)</source>
        <translation>训练的是最前面的层：按相同数量的最后几层估算（此时其上方的冻结层也在计算图中）</translation>
    </message>
    <message>
        <source>not modelled: every module of the trained layers is sized as trained</source>
        <translation>未建模：训练层的每个模块都按参与训练估算</translation>
    </message>
    <message>
        <source>not modelled: the extra modules are sized as frozen</source>
        <translation>未建模：额外模块按冻结估算</translation>
    </message>
    <message>
        <source>LLaMA Pro&apos;s evenly spaced layers are sized as the last layers</source>
        <translation>LLaMA Pro 均匀分布的层按最后几层估算</translation>
    </message>
    <message>
        <source>trainable_layers = %1 is more than the model&apos;s %2 layers</source>
        <translation>trainable_layers = %1 超过了模型的 %2 层</translation>
    </message>
    <message>
        <source>full fine-tuning of the last %1 of %2 layers</source>
        <translation>对 %2 层中的最后 %1 层做全量微调</translation>
    </message>
    <message>
        <source>Fused cross-entropy</source>
        <translation>融合交叉熵</translation>
    </message>
    <message>
        <source>none to slight: a chunked loss (torchtune, Unsloth)</source>
        <translation>无到轻微：分块损失（torchtune、Unsloth）</translation>
    </message>
    <message>
        <source>none to slight: needs the liger-kernel or cut-cross-entropy package and a model its patches cover</source>
        <translation>无到轻微：需要 liger-kernel 或 cut-cross-entropy 包，且模型在其补丁覆盖范围内</translation>
    </message>
    <message>
        <source>already fused</source>
        <translation>已是融合损失</translation>
    </message>
    <message>
        <source>cross-entropy standard → chunked</source>
        <translation>交叉熵 标准 → 分块</translation>
    </message>
    <message>
        <source>float8 (%1): the decoder linears still save their 16-bit inputs (activations unchanged); their backward casts take %2 GiB at most; the planner runs them at the card&apos;s FP8 peak.</source>
        <translation>float8（%1）：解码器线性层仍保存其 16 位输入（激活不变）；其反向传播中的转换最多占用 %2 GiB；规划器按显卡的 FP8 峰值计算它们。</translation>
    </message>
    <message>
        <source>float8 training</source>
        <translation>float8 训练</translation>
    </message>
    <message>
        <source>torchao float8 matmuls in the decoder linears (tensorwise or rowwise scaling): faster on cards with FP8 tensor cores; the linears still save their 16-bit inputs, so activations do not shrink.</source>
        <translation>解码器线性层使用 torchao float8 矩阵乘（按张量或按行缩放）：在有 FP8 张量核心的显卡上更快；线性层仍保存 16 位输入，因此激活不会减少。</translation>
    </message>
    <message>
        <source>float8 all-gather</source>
        <translation>float8 all-gather</translation>
    </message>
    <message>
        <source>FSDP2 gathers the float8 linears&apos; weights in 1 byte instead of 2 (tensorwise scaling only): half the gathered layer and its traffic.</source>
        <translation>FSDP2 以 1 字节而非 2 字节收集 float8 线性层的权重（仅按张量缩放）：收集的层及其通信量减半。</translation>
    </message>
    <message>
        <source>float8_all_gather needs tensorwise float8 and FSDP2 (torchao Float8LinearConfig.enable_fsdp_float8_all_gather)</source>
        <translation>float8_all_gather 需要按张量缩放的 float8 和 FSDP2（torchao Float8LinearConfig.enable_fsdp_float8_all_gather）</translation>
    </message>
    <message>
        <source>off (bf16 matmuls)</source>
        <translation>关闭（bf16 矩阵乘）</translation>
    </message>
    <message>
        <source>tensorwise scaling</source>
        <translation>按张量缩放</translation>
    </message>
    <message>
        <source>rowwise scaling</source>
        <translation>按行缩放</translation>
    </message>
    <message>
        <source>bf16 matmuls instead of float8 (this card has no FP8 tensor cores)</source>
        <translation>使用 bf16 矩阵乘代替 float8（此卡没有 FP8 张量核心）</translation>
    </message>
    <message>
        <source>Freeze tuning: the last %1 of %2 layers train; embeddings, lm_head and the other layers are frozen, keep nothing for backward and are not checkpointed.</source>
        <translation>冻结微调：%2 层中的最后 %1 层参与训练；嵌入层、lm_head 和其余层被冻结，不为反向传播保留任何内容，也不做检查点。</translation>
    </message>
    <message>
        <source>Context parallel</source>
        <translation>上下文并行</translation>
    </message>
    <message>
        <source>Split each sequence over this many GPUs: activations and logits per GPU divide by it, model states are sharded over them too; attention traffic is added to the step.</source>
        <translation>把每个序列切分到这么多张 GPU 上：每张 GPU 的激活和 logits 按此除，模型状态也在它们之间分片；注意力通信计入每步时间。</translation>
    </message>
    <message>
        <source>Context parallel kind</source>
        <translation>上下文并行方式</translation>
    </message>
    <message>
        <source>ring: k/v chunks passed around the GPUs (torchtitan context_parallel_degree); ulysses: all-to-all to a split of the heads for attention (DeepSpeed Ulysses, ArcticTraining); the heads must divide by the degree.</source>
        <translation>ring：k/v 块在 GPU 之间环形传递（torchtitan context_parallel_degree）；ulysses：通过 all-to-all 按注意力头切分来计算注意力（DeepSpeed Ulysses、ArcticTraining）；注意力头数必须能被并行度整除。</translation>
    </message>
    <message>
        <source>at least as many trainable layers as the model has: every layer trains (embeddings and lm_head stay frozen; sized as full fine-tuning)</source>
        <translation>可训练层数不少于模型层数：每一层都参与训练（嵌入层和 lm_head 保持冻结；按全量微调估算）</translation>
    </message>
    <message>
        <source>accelerate&apos;s fp8 backends are not read: sized as bf16 (float8 models torchao&apos;s Float8Linear)</source>
        <translation>未读取 accelerate 的 fp8 后端：按 bf16 估算（float8 建模的是 torchao 的 Float8Linear）</translation>
    </message>
    <message>
        <source>gpus must be a multiple of tensor_parallel x pipeline_parallel x context_parallel</source>
        <translation>gpus 必须是 tensor_parallel × pipeline_parallel × context_parallel 的倍数</translation>
    </message>
    <message>
        <source>Ulysses needs the attention heads (%1 per tensor-parallel rank) to divide by context_parallel, and the key/value heads (%2) to divide it or be divided by it</source>
        <translation>Ulysses 要求注意力头数（每个张量并行 rank %1 个）能被 context_parallel 整除，且键/值头数（%2）能整除它或被它整除</translation>
    </message>
    <message>
        <source>seq_len must be a multiple of %1 to split over context_parallel</source>
        <translation>要按 context_parallel 切分，seq_len 必须是 %1 的倍数</translation>
    </message>
    <message>
        <source>ring attention</source>
        <translation>环形注意力</translation>
    </message>
    <message>
        <source>Ulysses (all-to-all)</source>
        <translation>Ulysses（all-to-all）</translation>
    </message>
    <message>
        <source>loss: %1 → %2</source>
        <translation>损失：%1 → %2</translation>
    </message>
    <message>
        <source>Split the sequences (context parallel)</source>
        <translation>切分序列（上下文并行）</translation>
    </message>
    <message>
        <source>more GPUs and attention traffic in every layer; needs a framework with context parallelism (torchtitan, Axolotl, DeepSpeed Ulysses)</source>
        <translation>需要更多 GPU，且每层都有注意力通信；需要支持上下文并行的框架（torchtitan、Axolotl、DeepSpeed Ulysses）</translation>
    </message>
    <message>
        <source>sequences are already split</source>
        <translation>序列已经切分</translation>
    </message>
    <message>
        <source>no split up to 32 cards per sequence fits on %1</source>
        <translation>每个序列最多切分到 32 张卡也无法在 %1 上容纳</translation>
    </message>
    <message>
        <source>%1 × %2, each sequence over %3 cards (ring attention)</source>
        <translation>%1 × %2，每个序列分到 %3 张卡上（环形注意力）</translation>
    </message>
    <message>
        <source>&apos;not_as_in_scenario&apos; must be a list of texts</source>
        <translation>&apos;not_as_in_scenario&apos; 必须是文本列表</translation>
    </message>
    <message>
        <source>Tiled MLP</source>
        <translation>分块 MLP</translation>
    </message>
    <message>
        <source>DeepSpeed&apos;s TiledMLP (ArcticTraining tiled_mlp_compute): the MLP runs in tiles of about hidden-size tokens and saves only its input; backward recomputes one tile at a time. For long sequences; one more MLP forward per step.</source>
        <translation>DeepSpeed 的 TiledMLP（ArcticTraining tiled_mlp_compute）：MLP 按约 hidden-size 个 token 的分块运行，只保存其输入；反向传播时逐块重算。适用于长序列；每步多一次 MLP 前向。</translation>
    </message>
    <message>
        <source>tiled_mlp tiles dense MLPs only; this model&apos;s MLPs are MoE blocks</source>
        <translation>tiled_mlp 只对稠密 MLP 分块；此模型的 MLP 是 MoE 块</translation>
    </message>
    <message>
        <source>float8 with float8 all-gather</source>
        <translation>float8 并以 float8 all-gather</translation>
    </message>
    <message>
        <source>this card has no FP8 tensor cores</source>
        <translation>此卡没有 FP8 张量核心</translation>
    </message>
    <message>
        <source>float8 saves memory only when FSDP2 gathers fully fine-tuned weights over several cards; elsewhere its casts add memory</source>
        <translation>只有在 FSDP2 跨多卡聚合全参数微调的权重时 float8 才节省显存；其他情况下其类型转换会增加显存</translation>
    </message>
    <message>
        <source>weights are already gathered in float8</source>
        <translation>权重已以 float8 聚合</translation>
    </message>
    <message>
        <source>float8 %1 → tensorwise, FSDP2 gathers the linears&apos; weights in float8</source>
        <translation>float8 %1 → tensorwise，FSDP2 以 float8 聚合线性层权重</translation>
    </message>
    <message>
        <source>float8 matmuls round differently from bf16 (check the loss curve); needs torchao, FSDP2 and tensorwise scaling; usually faster on large matmuls</source>
        <translation>float8 矩阵乘的舍入与 bf16 不同（请检查损失曲线）；需要 torchao、FSDP2 和 tensorwise 缩放；大矩阵乘通常更快</translation>
    </message>
    <message>
        <source>Tiled MLP: each layer&apos;s MLP saves only its input; in backward one tile&apos;s tensors and the input&apos;s gradient take %1 GiB, and the MLP runs forward once more.</source>
        <translation>分块 MLP：每层 MLP 只保存其输入；反向传播时一个分块的张量和输入的梯度占 %1 GiB，且 MLP 多运行一次前向。</translation>
    </message>
    <message>
        <source>Max batch, 1 GPU</source>
        <translation>最大批量，1 GPU</translation>
    </message>
    <message>
        <source>Max seq., 1 GPU</source>
        <translation>最大序列，1 GPU</translation>
    </message>
    <message>
        <source>DeepSpeed ZeRO-3 with a transformers model: zero.Init partitions the model as it loads</source>
        <translation>DeepSpeed ZeRO-3 搭配 transformers 模型：zero.Init 在加载时即对模型分片</translation>
    </message>
    <message>
        <source>ArcticTraining&apos;s PEFT adapters are not imported yet: size the run as LoRA in the window</source>
        <translation>暂不导入 ArcticTraining 的 PEFT 适配器：请在窗口中按 LoRA 估算此训练</translation>
    </message>
    <message>
        <source>sized as supervised fine-tuning of one model</source>
        <translation>按单个模型的监督微调估算</translation>
    </message>
    <message>
        <source>packed: sequences up to max_length, short of it by less than one sample</source>
        <translation>已打包：序列最长为 max_length，不足部分少于一个样本</translation>
    </message>
    <message>
        <source>Liger: RoPE, RMSNorm, SwiGLU (not with TiledMLP) and the fused linear cross-entropy</source>
        <translation>Liger：RoPE、RMSNorm、SwiGLU（使用 TiledMLP 时不启用）以及融合线性交叉熵</translation>
    </message>
    <message>
        <source>sized as AdamW</source>
        <translation>按 AdamW 估算</translation>
    </message>
    <message>
        <source>with sequence parallelism the loss is DeepSpeed&apos;s TiledFusedLogitsLoss, one tile of logits at a time: sized as the fused linear cross-entropy</source>
        <translation>使用序列并行时损失为 DeepSpeed 的 TiledFusedLogitsLoss，每次一块 logits：按融合线性交叉熵估算</translation>
    </message>
    <message>
        <source>ArcticTraining overwrites it with micro_batch_size and gradient_accumulation_steps</source>
        <translation>ArcticTraining 会用 micro_batch_size 和 gradient_accumulation_steps 覆盖它</translation>
    </message>
    <message>
        <source>one step</source>
        <translation>一步</translation>
    </message>
    <message>
        <source>NCCL buffers %1 MiB per GPU (2 channels over PCIe).</source>
        <translation>NCCL 缓冲区每 GPU %1 MiB（经 PCIe 的 2 个通道）。</translation>
    </message>
    <message>
        <source>NCCL buffers %1 MiB per GPU (24 channels over NVLink).</source>
        <translation>NCCL 缓冲区每 GPU %1 MiB（经 NVLink 的 24 个通道）。</translation>
    </message>
    <message>
        <source>NCCL buffers %1 MiB per GPU (24 channels over NVLink and NVLink SHARP&apos;s buffers on the NVSwitch node).</source>
        <translation>NCCL 缓冲区每 GPU %1 MiB（经 NVLink 的 24 个通道，以及 NVSwitch 节点上 NVLink SHARP 的缓冲区）。</translation>
    </message>
    <message>
        <source>NCCL buffers %1 MiB per GPU (no card named: 24 channels as over NVLink; NVSwitch nodes of H100, H200 and B200 add NVLink SHARP&apos;s, PCIe-only nodes need less).</source>
        <translation>NCCL 缓冲区每 GPU %1 MiB（未指定显卡：按 NVLink 的 24 个通道计；H100、H200 和 B200 的 NVSwitch 节点另加 NVLink SHARP 的缓冲区，仅 PCIe 的节点需要更少）。</translation>
    </message>
    <message>
        <source>Communication buffers %1 MiB per GPU, sized as NCCL&apos;s over NVLink (this card&apos;s collectives library is not NCCL).</source>
        <translation>通信缓冲区每 GPU %1 MiB，按 NCCL 经 NVLink 的大小估算（此显卡的集合通信库不是 NCCL）。</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not one of: second, minute, hour</source>
        <translation>&apos;%1&apos; 不是以下之一：second、minute、hour</translation>
    </message>
    <message>
        <source>&apos;lacks&apos; must be an object of feature: reason</source>
        <translation>&apos;lacks&apos; 必须是“功能: 原因”形式的对象</translation>
    </message>
    <message>
        <source>unknown feature &apos;%1&apos;</source>
        <translation>未知功能 &apos;%1&apos;</translation>
    </message>
    <message>
        <source>each feature needs its reason and source as text</source>
        <translation>每个功能都需要以文本给出原因和出处</translation>
    </message>
    <message>
        <source>uses %1 more</source>
        <translation>多用 %1</translation>
    </message>
    <message>
        <source>%1. The fewest and cheapest fixes that fit together (lossless ones first, then numerics, the data, the method, more hardware): %2 → %3 per GPU.</source>
        <translation>%1。合起来能放得下的最少、最便宜的解决办法（先无损的，再数值精度、数据、方法、更多硬件）：%2 → 每 GPU %3。</translation>
    </message>
    <message>
        <source>%1 × %2, %3</source>
        <translation>%1 × %2，%3</translation>
    </message>
    <message>
        <source>%1 per GPU of %2 usable; %3; %4, %5</source>
        <translation>每 GPU %1（可用 %2）；%3；%4，%5</translation>
    </message>
    <message>
        <source>of which before the first step: instance up %1, environment %2, model download %3 (%4), load %5, start-up %6</source>
        <translation>其中第一步之前：实例启动 %1，环境 %2，模型下载 %3（%4），加载 %5，启动 %6</translation>
    </message>
    <message>
        <source>of which after the last step: the result (%1) saved %2, copied out %3</source>
        <translation>其中最后一步之后：结果（%1）保存 %2，复制出去 %3</translation>
    </message>
    <message>
        <source>No card of the catalog fits the run at its sequence length and batch: there is no plan to test.</source>
        <translation>目录中没有显卡能以该序列长度和批次运行此训练：没有可测试的方案。</translation>
    </message>
    <message>
        <source>%1 × %2 (%3)</source>
        <translation>%1 × %2（%3）</translation>
    </message>
    <message>
        <source>one step, which takes %1 (run the script with --warmup 0 --steps 1)</source>
        <translation>一步，耗时 %1（用 --warmup 0 --steps 1 运行脚本）</translation>
    </message>
    <message>
        <source>It is the rental itself: it verifies the memory per GPU (%1 estimated), the step time and the software at the real sequence length and batch; not the whole run&apos;s duration.</source>
        <translation>这就是要租用的配置本身：它在真实序列长度和批次下验证每 GPU 显存（估算 %1）、单步时间和软件栈；但不验证整个训练的时长。</translation>
    </message>
    <message>
        <source>Every card of the rental (%1 × %2) holds one data-parallel replica, so one card verifies its memory per GPU (%3 estimated) and its step time; it cannot verify the gradient all-reduce between the replicas.</source>
        <translation>租用配置（%1 × %2）的每张卡都持有一个数据并行副本，因此一张卡即可验证每 GPU 显存（估算 %3）和单步时间；但无法验证副本之间的梯度 all-reduce。</translation>
    </message>
    <message>
        <source>One node of the rental (%1 × %2): its model states shard over %3 ranks instead of %4, so each card holds more (%5 estimated against the rental&apos;s %6) — if it fits, the rental fits; it cannot verify the network between nodes or the rental&apos;s step time.</source>
        <translation>租用配置（%1 × %2）中的一个节点：模型状态分片到 %3 个 rank 而不是 %4 个，因此每张卡存放得更多（估算 %5，租用配置为 %6）——若它放得下，租用配置也放得下；但无法验证节点之间的网络或租用配置的单步时间。</translation>
    </message>
    <message>
        <source>No node-sized run holds the rental&apos;s per-GPU share, so the rental&apos;s first hour is the test: stop it if the first steps&apos; peak exceeds the estimate (%1 per GPU).</source>
        <translation>没有单节点规模的运行能容纳租用配置的每 GPU 份额，因此租用配置的第一个小时就是测试：如果前几步的峰值超过估算值（每 GPU %1），就停止它。</translation>
    </message>
    <message>
        <source>What to rent</source>
        <translation>租用什么</translation>
    </message>
    <message>
        <source>cannot run here</source>
        <translation>无法在此运行</translation>
    </message>
    <message>
        <source>Rent: %1 — %2. Fastest: %3.</source>
        <translation>租用：%1——%2。最快：%3。</translation>
    </message>
    <message>
        <source>%1 tokens (your dataset × epochs)</source>
        <translation>%1 个 token（你的数据集 × 轮数）</translation>
    </message>
    <message>
        <source>%1 tokens (assumed: set your dataset&apos;s token count)</source>
        <translation>%1 个 token（假设值：请设置你的数据集 token 数）</translation>
    </message>
    <message>
        <source>global batch %1 sequences × %2 tokens = %3 tokens per optimizer step</source>
        <translation>全局批次 %1 条序列 × %2 个 token = 每个优化步 %3 个 token</translation>
    </message>
    <message>
        <source>For %1; %2; precision %3, framework %4; software %5.</source>
        <translation>针对 %1；%2；精度 %3，框架 %4；软件栈 %5。</translation>
    </message>
    <message>
        <source>What to rent for %1 (%2): %3.</source>
        <translation>为 %1 租用什么（%2）：%3。</translation>
    </message>
    <message>
        <source>%1: not planned — %2.</source>
        <translation>%1：不纳入规划——%2。</translation>
    </message>
    <message>
        <source>%1: %2 × %3 — %4, %5; %6.</source>
        <translation>%1：%2 × %3——%4，%5；%6。</translation>
    </message>
    <message>
        <source>bitsandbytes 4-bit layers (QLoRA)</source>
        <translation>bitsandbytes 4 位层（QLoRA）</translation>
    </message>
    <message>
        <source>bitsandbytes 8-bit and paged optimizers</source>
        <translation>bitsandbytes 8 位与分页优化器</translation>
    </message>
    <message>
        <source>the flash-attn package (FlashAttention-2)</source>
        <translation>flash-attn 包（FlashAttention-2）</translation>
    </message>
    <message>
        <source>PyTorch FSDP</source>
        <translation>PyTorch FSDP</translation>
    </message>
    <message>
        <source>Triton kernels (Liger, Cut Cross-Entropy)</source>
        <translation>Triton 内核（Liger、Cut Cross-Entropy）</translation>
    </message>
    <message>
        <source>the card does not run %1</source>
        <translation>该显卡无法运行 %1</translation>
    </message>
    <message>
        <source>lowest cost that finishes within %1 (start-up included)</source>
        <translation>在 %1 内完成的最低成本（含启动）</translation>
    </message>
    <message>
        <source>lowest cost, start-up and the final copy included</source>
        <translation>最低成本，含启动与最终复制</translation>
    </message>
    <message>
        <source>What the planner rents for each model size and method, with its layout: the same search and ranking as the plan (%1), at %2 tokens × %3 per GPU, each cell&apos;s time and cost for %4.</source>
        <translation>规划器为每种模型规模和方法租用的配置及其布局：与规划相同的搜索和排序（%1），序列 %2 个词元 × 每 GPU %3 条，每格的时间和费用按 %4 计算。</translation>
    </message>
    <message>
        <source>Rent: %1 — no plan finishes within %2, so this is the fastest.</source>
        <translation>租用：%1 —— 没有任何方案能在 %2 内完成，因此这是最快的方案。</translation>
    </message>
    <message>
        <source>The measurement script runs on CUDA and ROCm only: on %1, measure a few steps of your own run with its memory reporting.</source>
        <translation>测量脚本只能在 CUDA 和 ROCm 上运行：在 %1 上，请用你自己的训练运行几步并开启显存报告来测量。</translation>
    </message>
    <message>
        <source>First, the one-hour test on the card you will rent: %1 at %2 an hour on demand — %3 of set-up, then %4 at the real sequence length and batch, %5 in all. %6 %7</source>
        <translation>先在你将租用的显卡上做一小时测试：%1，按需每小时 %2——准备 %3，然后在真实序列长度和批次下运行 %4，合计 %5。%6 %7</translation>
    </message>
    <message>
        <source>must be a list of whole numbers</source>
        <translation>必须是整数列表</translation>
    </message>
    <message>
        <source>the histogram needs edges and counts</source>
        <translation>直方图需要 edges 和 counts</translation>
    </message>
    <message>
        <source>the histogram must have one more edge than counts, and count every example</source>
        <translation>直方图的边界数必须比计数多一个，并且要统计每个样本</translation>
    </message>
    <message>
        <source>each length in &apos;at&apos; must be the figure it is named after</source>
        <translation>&apos;at&apos; 中的每个长度都必须等于其名称所指的数值</translation>
    </message>
    <message>
        <source>&apos;basis&apos; must be max, p99 or p95</source>
        <translation>&apos;basis&apos; 必须是 max、p99 或 p95</translation>
    </message>
    <message>
        <source>dataset lengths must be a JSON object</source>
        <translation>数据集长度必须是 JSON 对象</translation>
    </message>
    <message>
        <source>&apos;format&apos; is &apos;%1&apos;, expected &apos;gpusizer-lengths&apos;</source>
        <translation>&apos;format&apos; 为 &apos;%1&apos;，应为 &apos;gpusizer-lengths&apos;</translation>
    </message>
    <message>
        <source>&apos;ranks&apos; must hold one object per process (%1)</source>
        <translation>&apos;ranks&apos; 必须为每个进程各包含一个对象（%1）</translation>
    </message>
    <message>
        <source>each rank must be a JSON object</source>
        <translation>每个 rank 都必须是 JSON 对象</translation>
    </message>
    <message>
        <source>the script ran this run instead of the scenario&apos;s, and it is compared with its own estimate: %1</source>
        <translation>脚本运行的是这个配置而不是场景中的配置，因此与它自己的估算进行比较：%1</translation>
    </message>
    <message>
        <source>%1 processes ran it: each memory figure is the largest rank&apos;s, as the card that runs out first decides (every rank&apos;s peaks are in the file)</source>
        <translation>由 %1 个进程运行：每个显存数值取最大的 rank，因为最先耗尽显存的卡决定成败（每个 rank 的峰值都在文件中）</translation>
    </message>
    <message>
        <source>Dataset lengths</source>
        <translation>数据集长度</translation>
    </message>
    <message>
        <source>Your data&apos;s length distribution (the dataset script&apos;s gpusizer-lengths result): seq_len was set from it, and its tokens price the run.</source>
        <translation>你的数据的长度分布（数据集脚本的 gpusizer-lengths 结果）：seq_len 由它设置，训练的成本按它的 token 数计算。</translation>
    </message>
    <message>
        <source>The measurement script runs data parallelism and sharding only, not this layout: launch your own run on the %1 cards, with memory reporting.</source>
        <translation>测量脚本只运行数据并行和分片，不支持这种并行布局：请在这 %1 张卡上启动你自己的训练，并开启显存报告。</translation>
    </message>
    <message>
        <source>Export the measurement script and run it there on the %1 cards, every rank&apos;s peak measured: torchrun --nproc-per-node %1 probe.py.</source>
        <translation>导出测量脚本，在那里的 %1 张卡上运行，测量每个 rank 的峰值：torchrun --nproc-per-node %1 probe.py。</translation>
    </message>
    <message>
        <source>Export the measurement script and run it there before renting the run: python3 probe.py.</source>
        <translation>在租用整次训练之前，导出测量脚本并在那里运行：python3 probe.py。</translation>
    </message>
    <message>
        <source>%1 Your data&apos;s lengths are not known: run the dataset script on it first (File › Export dataset script…) and import its result, so the test runs at your longest sequence.</source>
        <translation>%1 你的数据长度尚不清楚：请先对数据运行数据集脚本（文件 › 导出数据集脚本…）并导入其结果，以便测试按你最长的序列运行。</translation>
    </message>
    <message>
        <source>%1 examples, %2 tokens: longest %3, p99 %4, p95 %5, median %6, mean %7 tokens</source>
        <translation>%1 个样本，%2 个 token：最长 %3，p99 %4，p95 %5，中位数 %6，平均 %7 个 token</translation>
    </message>
    <message>
        <source>p99</source>
        <translation>p99</translation>
    </message>
    <message>
        <source>p95</source>
        <translation>p95</translation>
    </message>
    <message>
        <source>the longest example</source>
        <translation>最长的样本</translation>
    </message>
    <message>
        <source>Sequence length %1 (%2): no example is cut; %3 tokens per epoch.</source>
        <translation>序列长度 %1（%2）：没有样本被截断；每轮 %3 个 token。</translation>
    </message>
    <message>
        <source>Sequence length %1 (%2): %3 examples are cut, losing %4 tokens; %5 tokens per epoch.</source>
        <translation>序列长度 %1（%2）：%3 个样本被截断，损失 %4 个 token；每轮 %5 个 token。</translation>
    </message>
    <message>
        <source>At micro-batch %1, batches padded to their longest example compute %2 tokens per epoch in %3 steps; packed, %4 tokens in %5 steps.</source>
        <translation>微批次为 %1 时，按批内最长样本填充的批次每轮计算 %2 个 token，共 %3 步；打包时为 %4 个 token，共 %5 步。</translation>
    </message>
    <message>
        <source>Loss: the model&apos;s own causal-LM loss of transformers %1, %2 B per logit element (tokens x vocabulary) at its peak.</source>
        <translation>损失：模型自带的 transformers %1 因果语言模型损失，峰值时每个 logit 元素（词元 × 词表）%2 B。</translation>
    </message>
    <message>
        <source>DeepSpeed ZeRO keeps an fp32 master copy and fp32 optimizer states for 16-bit weights: sized as %1 rather than %2. FSDP runs the pure 16-bit recipe.</source>
        <translation>DeepSpeed ZeRO 会为 16 位权重保留 fp32 主副本和 fp32 优化器状态：按 %1 而非 %2 估算。FSDP 可运行纯 16 位方案。</translation>
    </message>
    <message>
        <source>transformers version</source>
        <translation>transformers 版本</translation>
    </message>
    <message>
        <source>4.46 to 4.48</source>
        <translation>4.46 至 4.48</translation>
    </message>
    <message>
        <source>4.45 or older</source>
        <translation>4.45 或更早</translation>
    </message>
    <message>
        <source>Measured runs of this kind without a named framework fell between -%1% and +%2% of their estimates: the range shown stops at 40%. Name the framework, or measure a first step (docs/verify.md).</source>
        <translation>未指定框架的此类运行，实测值落在估算值的 -%1% 到 +%2% 之间：显示的范围止于 40%。请指定框架，或先实测一步（docs/verify.md）。</translation>
    </message>
    <message>
        <source>Measured runs of this kind fell between -%1% and +%2% of their estimates: the range shown stops at 40%. Measure a first step (docs/verify.md).</source>
        <translation>此类运行的实测值落在估算值的 -%1% 到 +%2% 之间：显示的范围止于 40%。请先实测一步（docs/verify.md）。</translation>
    </message>
    <message>
        <source>bf16 and fp16 are both on; transformers&apos; TrainingArguments refuses that (_validate_args): keep one</source>
        <translation>bf16 与 fp16 同时开启；transformers 的 TrainingArguments 拒绝这种设置（_validate_args）：只保留一个</translation>
    </message>
    <message>
        <source>Axolotl refuses QLoRA in 8 bits (schemas/peft.py validate_qlora): use load_in_4bit: true</source>
        <translation>Axolotl 拒绝 8 位的 QLoRA（schemas/peft.py validate_qlora）：请使用 load_in_4bit: true</translation>
    </message>
    <message>
        <source>adapter: qlora needs load_in_4bit: true; Axolotl refuses it without (schemas/peft.py validate_qlora)</source>
        <translation>adapter: qlora 需要 load_in_4bit: true；缺少时 Axolotl 拒绝该配置（schemas/peft.py validate_qlora）</translation>
    </message>
    <message>
        <source>Axolotl accepts bf16: true, false or auto, not &apos;%1&apos; (schemas/config.py:559)</source>
        <translation>Axolotl 的 bf16 只接受 true、false 或 auto，不接受“%1”（schemas/config.py:559）</translation>
    </message>
    <message>
        <source>Axolotl refuses activation_offloading without gradient_checkpointing (validation.py:1445)</source>
        <translation>没有 gradient_checkpointing 时 Axolotl 拒绝 activation_offloading（validation.py:1445）</translation>
    </message>
    <message>
        <source>Axolotl refuses attn_implementation together with the older switch &apos;%1&apos; (schemas/config.py normalize_attn_implementation): keep one</source>
        <translation>Axolotl 拒绝 attn_implementation 与旧开关“%1”同时出现（schemas/config.py normalize_attn_implementation）：只保留一个</translation>
    </message>
    <message>
        <source>LLaMA-Factory quantizes only for finetuning_type: lora (hparams/parser.py:236)</source>
        <translation>LLaMA-Factory 只在 finetuning_type: lora 时量化（hparams/parser.py:236）</translation>
    </message>
    <message>
        <source>bitsandbytes quantizes to 4 or 8 bits only; LLaMA-Factory refuses other widths (model_utils/quantization.py:178)</source>
        <translation>bitsandbytes 只支持 4 位或 8 位量化；LLaMA-Factory 拒绝其他位宽（model_utils/quantization.py:178）</translation>
    </message>
    <message>
        <source>LitGPT&apos;s quantization takes precision 32-true, not 32 (finetune/lora.py:148)</source>
        <translation>LitGPT 的量化需要 precision 32-true，而不是 32（finetune/lora.py:148）</translation>
    </message>
    <message>
        <source>LitGPT refuses quantization on more than one device (finetune/lora.py:152)</source>
        <translation>LitGPT 拒绝在多于一个设备上量化（finetune/lora.py:152）</translation>
    </message>
    <message>
        <source>Framework profile %1: loss %2, adapters %3, optimizer step %4, selective checkpointing %5.</source>
        <translation>框架配置档 %1：损失 %2，适配器 %3，优化器步骤 %4，选择性激活检查点 %5。</translation>
    </message>
    <message>
        <source>Peak moment: %1, with every saved activation.</source>
        <translation>峰值时刻：%1，所有保存的激活值均仍存在。</translation>
    </message>
    <message>
        <source>foreach (torch&apos;s default)</source>
        <translation>foreach（torch 的默认）</translation>
    </message>
    <message>
        <source>one parameter at a time</source>
        <translation>逐个参数</translation>
    </message>
    <message>
        <source>fused</source>
        <translation>融合内核</translation>
    </message>
    <message>
        <source>recomputes the attention core</source>
        <translation>重算注意力核心</translation>
    </message>
    <message>
        <source>saves listed operations&apos; outputs</source>
        <translation>保存所列算子的输出</translation>
    </message>
    <message>
        <source>the files name no model: give its config.json</source>
        <translation>这些文件未指明模型：请提供其 config.json</translation>
    </message>
    <message>
        <source>model &apos;%1&apos; is not in the catalog: give its config.json</source>
        <translation>模型“%1”不在目录中：请提供其 config.json</translation>
    </message>
    <message>
        <source>every GPU of the machine: sized on the scenario&apos;s GPU count (the GPUs field; the CLI&apos;s --gpus)</source>
        <translation>使用机器上的全部 GPU：按场景中的 GPU 数量估算（GPU 数量字段；命令行的 --gpus）</translation>
    </message>
    <message>
        <source>%1 (%2 usable), %3 on %4</source>
        <translation>%1（可用 %2），%3，框架 %4</translation>
    </message>
    <message>
        <source>%1: fits with the %2 margin, %3 per GPU, %4 free</source>
        <translation>%1：含 %2 余量可容纳，每 GPU %3，空闲 %4</translation>
    </message>
    <message>
        <source>%1: tight, the %2 per GPU estimate fits but not with the %3 margin; it may run out of memory</source>
        <translation>%1：紧张，每 GPU %2 的估算值能放下，但加上 %3 余量后放不下；运行时可能显存不足</translation>
    </message>
    <message>
        <source>%1: does not fit, %2</source>
        <translation>%1：放不下，%2</translation>
    </message>
    <message>
        <source>Sequence length %1 (%2): one example is cut, losing %3 tokens; %4 tokens per epoch.</source>
        <translation>序列长度 %1（%2）：1 个样本被截断，损失 %3 个 token；每轮 %4 个 token。</translation>
    </message>
    <message>
        <source>transformers before 5.0 loads the weights in fp32 unless the script passes a 16-bit torch_dtype; under the Trainer&apos;s mixed precision that run is %1: choose that precision to size it.</source>
        <translation>transformers 5.0 之前，除非脚本传入 16 位的 torch_dtype，权重以 fp32 加载；在 Trainer 的混合精度下这次运行就是 %1：请选择该精度来估算。</translation>
    </message>
    <message>
        <source>Axolotl refuses to merge a QLoRA adapter into a quantized base (schemas/peft.py validate_qlora)</source>
        <translation>Axolotl 拒绝把 QLoRA 适配器合并进量化的基座（schemas/peft.py validate_qlora）</translation>
    </message>
    <message>
        <source>Axolotl quantizes only with adapter: qlora (loaders/model.py:712); with adapter: lora the base loads in 16 bits and PEFT&apos;s prepare_model_for_kbit_training casts it to fp32, except under DeepSpeed ZeRO-3 or FSDP&apos;s cpu_ram_efficient_loading (loaders/model.py:1002-1008)</source>
        <translation>Axolotl 只在 adapter: qlora 时量化（loaders/model.py:712）；adapter: lora 时基座以 16 位加载，PEFT 的 prepare_model_for_kbit_training 再把它转为 fp32，DeepSpeed ZeRO-3 或 FSDP 的 cpu_ram_efficient_loading 下除外（loaders/model.py:1002-1008）</translation>
    </message>
    <message>
        <source>not used: %1 comes first (enums.py:118-125)</source>
        <translation>未使用：%1 优先（enums.py:118-125）</translation>
    </message>
    <message>
        <source>DeepSpeed refuses bf16 and fp16 enabled together (runtime/config.py:827)</source>
        <translation>DeepSpeed 拒绝同时启用 bf16 与 fp16（runtime/config.py:827）</translation>
    </message>
    <message>
        <source>torchtune refuses activation offloading without activation checkpointing (lora_finetune_single_device.py:186)</source>
        <translation>没有激活检查点时 torchtune 拒绝激活值卸载（lora_finetune_single_device.py:186）</translation>
    </message>
    <message>
        <source>PEFT refuses layers_to_transform or layers_pattern with a regex target_modules (tuners/lora/config.py:1019)</source>
        <translation>target_modules 为正则表达式时 PEFT 拒绝 layers_to_transform 或 layers_pattern（tuners/lora/config.py:1019）</translation>
    </message>
    <message>
        <source>PEFT refuses layers_pattern without layers_to_transform (tuners/lora/config.py:1026)</source>
        <translation>没有 layers_to_transform 时 PEFT 拒绝 layers_pattern（tuners/lora/config.py:1026）</translation>
    </message>
    <message>
        <source>On a card with room the caching allocator keeps up to %1 GiB reserved (PyTorch&apos;s allocator replayed over two steps of this run); the fit uses %2 GiB: on a smaller card the allocator frees its cached segments and retries, which slows the steps where it does.</source>
        <translation>在显存充裕的卡上，缓存分配器最多保留 %1 GiB（按本次运行的两个训练步重放 PyTorch 分配器得出）；适配判断使用 %2 GiB：在较小的卡上，分配器会释放缓存的段并重试，发生重试的训练步会变慢。</translation>
    </message>
    <message>
        <source>bf16 + bf16 master and states (DeepSpeed)</source>
        <translation>bf16 + bf16 主权重与优化器状态（DeepSpeed）</translation>
    </message>
    <message>
        <source>bf16 is not enabled: DeepSpeed&apos;s bf16 options do not apply</source>
        <translation>未启用 bf16：DeepSpeed 的 bf16 选项不生效</translation>
    </message>
    <message>
        <source>DeepSpeed runs its bf16 master weights and optimizer states under ZeRO stage 1, 2 or 3 only (runtime/config.py:1041)</source>
        <translation>DeepSpeed 仅在 ZeRO 阶段 1、2 或 3 下运行 bf16 主权重与优化器状态（runtime/config.py:1041）</translation>
    </message>
    <message>
        <source>DeepSpeed refuses bf16_optimizer_states without bf16_master_weights_and_grads (runtime/config.py:1047)</source>
        <translation>DeepSpeed 拒绝在没有 bf16_master_weights_and_grads 的情况下使用 bf16_optimizer_states（runtime/config.py:1047）</translation>
    </message>
    <message>
        <source>DeepSpeed runs a bf16 master with fp32 optimizer states only with the optimizer offloaded to DeepSpeedCPUAdam (zero/stage_1_and_2.py:292, stage3.py:295); set bf16_optimizer_states too</source>
        <translation>DeepSpeed 仅在优化器卸载到 DeepSpeedCPUAdam 时才运行 bf16 主权重配 fp32 优化器状态（zero/stage_1_and_2.py:292、stage3.py:295）；请同时设置 bf16_optimizer_states</translation>
    </message>
    <message>
        <source>the master copy and fp32 states live on the CPU with the offloaded optimizer: the GPU holds what it holds with an fp32 master, which is sized (host RAM 2 B per parameter high)</source>
        <translation>主权重副本与 fp32 状态随卸载的优化器位于 CPU：GPU 上的内容与 fp32 主权重时相同，按后者估算（主机内存每参数多算 2 B）</translation>
    </message>
    <message>
        <source>bf16-bf16-master is DeepSpeed&apos;s bf16 master weights and optimizer states, which it runs under ZeRO stage 1, 2 or 3 only: set the sharding engine to DeepSpeed and a ZeRO stage</source>
        <translation>bf16-bf16-master 是 DeepSpeed 的 bf16 主权重与优化器状态，仅在 ZeRO 阶段 1、2 或 3 下运行：请将分片引擎设为 DeepSpeed 并选择一个 ZeRO 阶段</translation>
    </message>
    <message>
        <source>PEFT version</source>
        <translation>PEFT 版本</translation>
    </message>
    <message>
        <source>The PEFT release: since 0.12 adapters on a 16-bit model are made in fp32; 0.11 and older make them in the model&apos;s dtype (2 bytes per adapter parameter, gradient and state instead of 4). Current is 0.12 and later.</source>
        <translation>PEFT 发行版本：自 0.12 起，16 位模型上的适配器以 fp32 创建；0.11 及更早版本使用模型的数据类型（每个适配器参数、梯度和状态 2 字节而非 4 字节）。“当前”指 0.12 及之后。</translation>
    </message>
    <message>
        <source>PyTorch version</source>
        <translation>PyTorch 版本</translation>
    </message>
    <message>
        <source>The PyTorch release: 1.x zero-fills gradients instead of freeing them (they stay through the next forward) and runs AdamW one parameter at a time. Current is 2.0 and later.</source>
        <translation>PyTorch 发行版本：1.x 将梯度置零而不释放（梯度会保留到下一次前向传播），并逐个参数运行 AdamW。“当前”指 2.0 及之后。</translation>
    </message>
    <message>
        <source>0.12 or later</source>
        <translation>0.12 或更高</translation>
    </message>
    <message>
        <source>0.11 or older</source>
        <translation>0.11 或更早</translation>
    </message>
    <message>
        <source>2.0 or later</source>
        <translation>2.0 或更高</translation>
    </message>
    <message>
        <source>1.x</source>
        <translation>1.x</translation>
    </message>
    <message>
        <source>Speed on %1: HFU %2 as set (yours, for every card).</source>
        <translation>%1 上的速度：HFU %2（按你的设置，适用于所有显卡）。</translation>
    </message>
    <message>
        <source>Speed on %1: HFU %2 of its %3 BF16 TFLOPS, published for %4: %5.</source>
        <translation>%1 上的速度：其 %3 BF16 TFLOPS 的 HFU %2，已发表数据（%4）：%5。</translation>
    </message>
    <message>
        <source>Speed on %1: HFU %2 of its %3 FP16 TFLOPS, published for %4: %5.</source>
        <translation>%1 上的速度：其 %3 FP16 TFLOPS 的 HFU %2，已发表数据（%4）：%5。</translation>
    </message>
    <message>
        <source>Speed on %1: no training throughput is published for this card; HFU %2 assumed (below every published figure) — measure it before a long run.</source>
        <translation>%1 上的速度：这张卡没有已发表的训练吞吐量；假设 HFU 为 %2（低于所有已发表的数值）——长时间训练之前请先实测。</translation>
    </message>
    <message>
        <source>a run&apos;s step time was left out of the HFU fit: by the time model, memory traffic or communication, not the matmuls, sets its length</source>
        <translation>一次运行的步时未计入 HFU 拟合：按时间模型，决定其长度的是显存流量或通信，而不是矩阵乘法</translation>
    </message>
    <message>
        <source>Padded batches</source>
        <translation>填充批次</translation>
    </message>
    <message>
        <source>Samples of a micro-batch are padded to the longest and the model gets an attention mask (the Trainer&apos;s padding collator). With a mask, SDPA in transformers copies the key/value heads out to one per query head; off for fixed-length chunks fed without a mask.</source>
        <translation>微批次中的样本被填充到最长样本的长度，模型收到注意力掩码（Trainer 的填充整理器）。有掩码时，transformers 的 SDPA 会把键/值头复制到每个查询头各一份；对不带掩码输入的定长块请关闭。</translation>
    </message>
    <message>
        <source>%1 puts each example&apos;s chosen and rejected sequences through the model together: activations and logits are sized for %2 sequences of seq_len per GPU (prompt + completion, padded to the longer).</source>
        <translation>%1 把每个样本的 chosen 和 rejected 序列一起送入模型：激活和 logits 按每 GPU %2 条 seq_len 长的序列估算（提示 + 回复，填充到较长者）。</translation>
    </message>
    <message>
        <source>The reference model is a second frozen copy of the model: %1 GiB per GPU in the weights. TRL 0.29 and later reload it from the model&apos;s path in fp32 unless model_init_kwargs sets a dtype; precomputed reference log-probs or LoRA need no copy.</source>
        <translation>参考模型是模型的第二份冻结副本：每 GPU %1 GiB，计入权重。TRL 0.29 及以后从模型路径重新加载它，除非 model_init_kwargs 指定 dtype，否则为 fp32；预计算参考对数概率或使用 LoRA 则不需要副本。</translation>
    </message>
    <message>
        <source>Objective</source>
        <translation>训练目标</translation>
    </message>
    <message>
        <source>Reference log-probs</source>
        <translation>参考对数概率</translation>
    </message>
    <message>
        <source>DPO, IPO and KTO: run the reference model every step (a frozen copy under full fine-tuning, the model with its adapters disabled under LoRA), or compute its log-probabilities once before training (precompute_ref_log_probs: no copy while training). Ignored by the other objectives.</source>
        <translation>DPO、IPO 和 KTO：每步运行参考模型（全参数微调时为冻结副本，LoRA 时为禁用适配器的同一模型），或在训练前一次性计算其对数概率（precompute_ref_log_probs：训练期间没有副本）。其他目标忽略此项。</translation>
    </message>
    <message>
        <source>an objective GPU Sizer does not size yet (generation, reward or value models): sized as supervised training</source>
        <translation>GPU Sizer 尚不估算的训练目标（生成、奖励或价值模型）：按监督训练估算</translation>
    </message>
    <message>
        <source>a separately named reference model: sized as a copy of the policy under full fine-tuning, not counted beside LoRA</source>
        <translation>单独指定的参考模型：全参数微调时按策略模型的副本估算，LoRA 时不计入</translation>
    </message>
    <message>
        <source>KTO needs a micro-batch of 2 or more: each example&apos;s KL completion comes from another example of the batch</source>
        <translation>KTO 需要 2 或更大的微批次：每个样本的 KL 回复取自批次中的另一个样本</translation>
    </message>
    <message>
        <source>Precomputed reference log-probs</source>
        <translation>预计算参考对数概率</translation>
    </message>
    <message>
        <source>the same training: TRL&apos;s precompute_ref_log_probs runs the reference over the dataset once before the first step (minutes to hours, stored on disk)</source>
        <translation>训练结果相同：TRL 的 precompute_ref_log_probs 在第一步之前对数据集运行一遍参考模型（数分钟到数小时，结果存于磁盘）</translation>
    </message>
    <message>
        <source>no reference copy to drop</source>
        <translation>没有可去掉的参考副本</translation>
    </message>
    <message>
        <source>reference log-probs computed once before training (precompute_ref_log_probs): no reference copy</source>
        <translation>参考对数概率在训练前一次性计算（precompute_ref_log_probs）：无参考副本</translation>
    </message>
    <message>
        <source>generation (GRPO&apos;s completions)</source>
        <translation>生成（GRPO 的回复）</translation>
    </message>
    <message>
        <source>Completions per prompt</source>
        <translation>每个提示的回复数</translation>
    </message>
    <message>
        <source>GRPO&apos;s num_generations: completions sampled per prompt (TRL default 8); the global generation batch must divide by it.</source>
        <translation>GRPO 的 num_generations：每个提示采样的回复数（TRL 默认 8）；全局生成批次必须能被它整除。</translation>
    </message>
    <message>
        <source>Completion length</source>
        <translation>回复长度</translation>
    </message>
    <message>
        <source>GRPO&apos;s max_completion_length: the generated part of each sequence (seq_len is prompt + completion); the logits and log-probs cover only it.</source>
        <translation>GRPO 的 max_completion_length：每条序列中生成的部分（seq_len 为提示 + 回复）；logits 和对数概率只覆盖这一部分。</translation>
    </message>
    <message>
        <source>KL coefficient</source>
        <translation>KL 系数</translation>
    </message>
    <message>
        <source>GRPO&apos;s beta: above 0 a reference model is kept (a frozen copy under full fine-tuning); TRL&apos;s default 0 loads none.</source>
        <translation>GRPO 的 beta：大于 0 时保留参考模型（全参数微调时为冻结副本）；TRL 默认 0，不加载参考模型。</translation>
    </message>
    <message>
        <source>Generation</source>
        <translation>生成</translation>
    </message>
    <message>
        <source>Where GRPO generates: transformers&apos; generate on the training GPUs (its KV cache), vLLM in the trainer&apos;s process on the same GPUs (colocate: its share of memory), or a vLLM server on GPUs of its own.</source>
        <translation>GRPO 在哪里生成：训练 GPU 上用 transformers 的 generate（其 KV 缓存），训练进程中同一 GPU 上的 vLLM（同置：占用一部分显存），或在独立 GPU 上运行的 vLLM 服务器。</translation>
    </message>
    <message>
        <source>vLLM memory share</source>
        <translation>vLLM 显存份额</translation>
    </message>
    <message>
        <source>Colocate: the share of each GPU&apos;s memory vLLM takes for its weights, KV cache and buffers (TRL default 0.3). The estimate says the largest share that leaves the trainer room.</source>
        <translation>同置：vLLM 为其权重、KV 缓存和缓冲区占用的每 GPU 显存份额（TRL 默认 0.3）。估算会给出为训练留足空间的最大份额。</translation>
    </message>
    <message>
        <source>vLLM sleep mode</source>
        <translation>vLLM 休眠模式</translation>
    </message>
    <message>
        <source>Colocate: vLLM releases its weights and KV cache while the trainer runs forward and backward (vllm_enable_sleep_mode), so the two phases peak apart.</source>
        <translation>同置：训练器前向和反向时 vLLM 释放其权重和 KV 缓存（vllm_enable_sleep_mode），两个阶段的峰值错开。</translation>
    </message>
    <message>
        <source>vLLM server GPUs</source>
        <translation>vLLM 服务器 GPU</translation>
    </message>
    <message>
        <source>Server mode: the GPUs trl vllm-serve runs on (its tensor-parallel size), beside the training GPUs.</source>
        <translation>服务器模式：trl vllm-serve 运行所用的 GPU（其张量并行规模），在训练 GPU 之外。</translation>
    </message>
    <message>
        <source>completion_length %1 leaves no prompt in seq_len %2 (seq_len is prompt + completion)</source>
        <translation>completion_length %1 在 seq_len %2 中没有留下提示（seq_len 为提示 + 回复）</translation>
    </message>
    <message>
        <source>the generation batch, micro_batch x gradient_accumulation x data-parallel GPUs = %1 completions, does not divide by num_generations %2</source>
        <translation>生成批次 micro_batch × gradient_accumulation × 数据并行 GPU 数 = %1 条回复，不能被 num_generations %2 整除</translation>
    </message>
    <message>
        <source>GRPO&apos;s generation on the training GPUs: vLLM&apos;s share of memory (colocate), or transformers&apos; KV cache.</source>
        <translation>GRPO 在训练 GPU 上的生成：vLLM 占用的显存份额（同置模式），或 transformers 的 KV 缓存。</translation>
    </message>
    <message>
        <source>transformers&apos; generate keeps the KV cache of this GPU&apos;s whole generation batch (micro_batch x gradient_accumulation completions of seq_len): %1 GiB; under ZeRO-3 it also gathers every weight.</source>
        <translation>transformers 的 generate 保留本 GPU 整个生成批次（micro_batch × gradient_accumulation 条 seq_len 长的回复）的 KV 缓存：%1 GiB；在 ZeRO-3 下还会收集全部权重。</translation>
    </message>
    <message>
        <source>vLLM&apos;s share is a fraction of the card&apos;s memory: choose a GPU to size it. Sized at what it needs at least: %1 GiB (its 16-bit weights and this GPU&apos;s KV cache).</source>
        <translation>vLLM 的份额是显卡显存的比例：请选择 GPU 以确定其大小。按其至少所需估算：%1 GiB（其 16 位权重和本 GPU 的 KV 缓存）。</translation>
    </message>
    <message>
        <source>A share of %1 cannot hold vLLM&apos;s weights and KV cache: raise vllm_gpu_memory_utilization to at least %2 (sized at that).</source>
        <translation>%1 的份额放不下 vLLM 的权重和 KV 缓存：请把 vllm_gpu_memory_utilization 提高到至少 %2（按此估算）。</translation>
    </message>
    <message>
        <source>vLLM takes %1 of each GPU (%2 GiB). It needs at least %3 for its 16-bit weights (%4 GiB) and this GPU&apos;s KV cache (%5 GiB), before its activations and CUDA graphs; the trainer leaves it at most %6.</source>
        <translation>vLLM 占用每个 GPU 的 %1（%2 GiB）。其 16 位权重（%4 GiB）和本 GPU 的 KV 缓存（%5 GiB）至少需要 %3，不含其激活和 CUDA 图；训练器最多给它留下 %6。</translation>
    </message>
    <message>
        <source>The vLLM server&apos;s %1 GPU(s) need %2 GiB each for the weights and every rank&apos;s KV cache; trl vllm-serve takes 90% of each card by default. They are not in the training GPUs&apos; figures.</source>
        <translation>vLLM 服务器的 %1 个 GPU 每个需要 %2 GiB，用于权重和所有进程的 KV 缓存；trl vllm-serve 默认占用每张卡的 90%。它们不计入训练 GPU 的数字。</translation>
    </message>
    <message>
        <source>Loss: %1&apos;s per-token log-probabilities over the fp32 logits, %2 B per logit element (tokens x vocabulary: %3) at its peak.</source>
        <translation>损失：%1 在 fp32 logits 上计算逐 token 对数概率，峰值时每个 logit 元素（token × 词表：%3）%2 B。</translation>
    </message>
    <message>
        <source>both sequences of a pair</source>
        <translation>一对中的两条序列</translation>
    </message>
    <message>
        <source>the completion&apos;s tokens only</source>
        <translation>仅回复部分的 token</translation>
    </message>
    <message>
        <source>every token</source>
        <translation>所有 token</translation>
    </message>
    <message>
        <source>no prompt length in the config: set seq_len to your longest prompt + completion_length</source>
        <translation>配置中没有提示长度：请把 seq_len 设为最长提示 + completion_length</translation>
    </message>
    <message>
        <source>the same training; each generation reloads vLLM&apos;s weights and rebuilds its KV cache (seconds per step)</source>
        <translation>训练结果相同；每次生成都要重新加载 vLLM 的权重并重建其 KV 缓存（每步数秒）</translation>
    </message>
    <message>
        <source>no colocated vLLM awake through training</source>
        <translation>没有在训练期间保持唤醒的同置 vLLM</translation>
    </message>
    <message>
        <source>vllm_enable_sleep_mode: vLLM frees its share while the trainer steps</source>
        <translation>vllm_enable_sleep_mode：训练器执行训练步时 vLLM 释放其份额</translation>
    </message>
    <message>
        <source>The reference model (kl_beta above 0) is a second frozen copy of the model: %1 GiB per GPU in the weights. LoRA, or kl_beta 0 (TRL&apos;s default), needs no copy.</source>
        <translation>参考模型（kl_beta 大于 0）是模型的第二份冻结副本：每 GPU %1 GiB，计入权重。使用 LoRA，或 kl_beta 为 0（TRL 默认），则不需要副本。</translation>
    </message>
    <message>
        <source>micro-batch %1 → %2, gradient accumulation %3 → %4</source>
        <translation>微批次 %1 → %2，梯度累积 %3 → %4</translation>
    </message>
    <message>
        <source>compute %1 s, memory floor %2 s, communication %3 s (%4 exposed), offload %5 s, optimizer step %6 s, generation %7 s</source>
        <translation>计算 %1 秒，显存下限 %2 秒，通信 %3 秒（%4 秒未被掩盖），卸载 %5 秒，优化器步 %6 秒，生成 %7 秒</translation>
    </message>
    <message>
        <source>the encoder trains and saves %1 GiB for backward</source>
        <translation>视觉编码器参与训练，为反向传播保存 %1 GiB</translation>
    </message>
    <message>
        <source>the encoder is frozen (it keeps nothing for backward); the projector trains and saves %1 GiB</source>
        <translation>视觉编码器冻结（不为反向传播保存任何张量）；投影层参与训练，保存 %1 GiB</translation>
    </message>
    <message>
        <source>the encoder and projector are frozen and keep nothing for backward (%1 GiB)</source>
        <translation>视觉编码器与投影层均冻结，不为反向传播保存任何张量（%1 GiB）</translation>
    </message>
    <message>
        <source>Images: %1 per example, resized by %2&apos;s processor to %3 px, %4 language-model tokens each (part of seq_len) over %5 encoder patches; %6.</source>
        <translation>图像：每个样本 %1 张，由 %2 的处理器缩放到 %3 像素，每张占语言模型 %4 个 token（计入 seq_len），编码器处理 %5 个图块；%6。</translation>
    </message>
    <message>
        <source>&apos;%1&apos; must be a whole number between 0 and 10^12</source>
        <translation>&apos;%1&apos; 必须是 0 到 10^12 之间的整数</translation>
    </message>
    <message>
        <source>a vision encoder needs hidden_size, depth, patch_size, spatial_merge_size and temporal_patch_size of at least 1</source>
        <translation>视觉编码器的 hidden_size、depth、patch_size、spatial_merge_size 和 temporal_patch_size 都必须至少为 1</translation>
    </message>
    <message>
        <source>Images per example</source>
        <translation>每个样本的图像数</translation>
    </message>
    <message>
        <source>Images in each example. Their tokens are part of seq_len, as the trainers&apos; max_length and cutoff_len count them; the encoder runs over their patches.</source>
        <translation>每个样本中的图像数。图像 token 计入 seq_len（与训练框架的 max_length 和 cutoff_len 一致）；视觉编码器在其图块上运行。</translation>
    </message>
    <message>
        <source>Image width</source>
        <translation>图像宽度</translation>
    </message>
    <message>
        <source>Pixels before the processor resizes: Qwen-VL keeps the aspect and about the area (dynamic resolution); Gemma 3 and LLaVA resize to a fixed square.</source>
        <translation>处理器缩放前的像素数：Qwen-VL 保持宽高比并大致保持面积（动态分辨率）；Gemma 3 和 LLaVA 缩放到固定的正方形。</translation>
    </message>
    <message>
        <source>Image height</source>
        <translation>图像高度</translation>
    </message>
    <message>
        <source>Pixels before the processor resizes.</source>
        <translation>处理器缩放前的像素数。</translation>
    </message>
    <message>
        <source>Image max pixels</source>
        <translation>图像最大像素数</translation>
    </message>
    <message>
        <source>Qwen-VL: the largest width x height an image is resized to (LLaMA-Factory image_max_pixels, the processor&apos;s max_pixels); 0 keeps the released processor&apos;s 12,845,056.</source>
        <translation>Qwen-VL：图像缩放后的最大宽 × 高（LLaMA-Factory 的 image_max_pixels、处理器的 max_pixels）；0 表示沿用发布的处理器的 12,845,056。</translation>
    </message>
    <message>
        <source>Freeze vision tower</source>
        <translation>冻结视觉编码器</translation>
    </message>
    <message>
        <source>Full fine-tuning: the vision encoder keeps its weights (no gradients, optimizer states or saved activations for it). LLaMA-Factory&apos;s default; TRL trains it.</source>
        <translation>全参数微调：视觉编码器保持原有权重（没有它的梯度、优化器状态和保存的激活）。LLaMA-Factory 的默认设置；TRL 会训练它。</translation>
    </message>
    <message>
        <source>Freeze projector</source>
        <translation>冻结投影层</translation>
    </message>
    <message>
        <source>Full fine-tuning: the projector from the encoder into the language model keeps its weights (LLaMA-Factory&apos;s freeze_multi_modal_projector).</source>
        <translation>全参数微调：从编码器到语言模型的投影层保持原有权重（LLaMA-Factory 的 freeze_multi_modal_projector）。</translation>
    </message>
    <message>
        <source>Qwen-VL&apos;s processor refuses images whose aspect ratio is 200 or more</source>
        <translation>Qwen-VL 的处理器拒绝宽高比达到 200 或以上的图像</translation>
    </message>
    <message>
        <source>%1 images of %2 tokens each take %3 tokens, more than seq_len %4 leaves them (images are part of the sequence): raise seq_len or lower the image size</source>
        <translation>%1 张图像、每张 %2 个 token，共占 %3 个 token，超过了 seq_len %4 留给它们的空间（图像是序列的一部分）：请增大 seq_len 或减小图像尺寸</translation>
    </message>
    <message>
        <source>Frozen vision tower</source>
        <translation>冻结视觉编码器</translation>
    </message>
    <message>
        <source>the image encoder and projector keep their pre-trained weights (LLaMA-Factory&apos;s default): usually enough unless the images are unlike the pre-training ones</source>
        <translation>图像编码器和投影层保持预训练权重（LLaMA-Factory 的默认设置）：除非图像与预训练数据差别很大，通常已足够</translation>
    </message>
    <message>
        <source>freeze_vision_tower and freeze_multi_modal_projector: no gradients, optimizer states or saved activations for them</source>
        <translation>freeze_vision_tower 和 freeze_multi_modal_projector：没有它们的梯度、优化器状态和保存的激活</translation>
    </message>
    <message>
        <source>GPU time, the vLLM server&apos;s %1 GPUs included</source>
        <translation>GPU 时间（含 vLLM 服务器的 %1 块 GPU）</translation>
    </message>
    <message>
        <source>+ %1 GPUs for the vLLM server</source>
        <translation>另加 %1 块 GPU 运行 vLLM 服务器</translation>
    </message>
    <message>
        <source>text_config leaves out %1: LlamaConfig&apos;s defaults taken, as transformers does</source>
        <translation>text_config 未给出 %1：与 transformers 一样采用 LlamaConfig 的默认值</translation>
    </message>
    <message>
        <source>PPO trains a value model in full beside the policy, even under LoRA (PolicyAndValueWrapper): %1 GiB per GPU with its gradients, optimizer states and activations; the frozen reward model adds %2 GiB. Both are sized as the policy&apos;s backbone with a one-output head; generate()&apos;s fp32 scores of the rollout stay alive through training: %3 GiB.</source>
        <translation>PPO 在策略模型之外全参数训练一个价值模型，即使使用 LoRA 也是如此（PolicyAndValueWrapper）：连同其梯度、优化器状态和激活，每块 GPU %1 GiB；冻结的奖励模型另加 %2 GiB。两者都按策略模型的主干加一个单输出头估算；generate() 对整个 rollout 的 fp32 分数在训练期间一直保留：%3 GiB。</translation>
    </message>
    <message>
        <source>TRL&apos;s PPOTrainer never enables gradient checkpointing on its models (ppo_trainer.py L283-285, L382-384): a run with the trainer as it is is sized with gradient_checkpointing none.</source>
        <translation>TRL 的 PPOTrainer 从不为其模型启用梯度检查点（ppo_trainer.py L283-285、L382-384）：按原样使用该训练器的运行，应以 gradient_checkpointing none 估算。</translation>
    </message>
    <message>
        <source>PPO&apos;s reference policy is a second frozen copy of the model: %1 GiB per GPU in the weights. Under LoRA the policy with its adapter disabled is the reference: no copy.</source>
        <translation>PPO 的参考策略是模型的第二份冻结副本：权重中每块 GPU %1 GiB。使用 LoRA 时，禁用适配器的策略模型即为参考：无需副本。</translation>
    </message>
    <message>
        <source>What the run optimises: supervised fine-tuning, or a preference objective as TRL runs it. DPO, IPO, ORPO and SimPO put each example&apos;s chosen and rejected sequences through the model together (twice the activations and logits of a micro-batch); DPO, IPO and KTO also need the reference model&apos;s log-probabilities (a second frozen copy of the model under full fine-tuning). GRPO and PPO generate their sequences as they train; PPO also trains a value model in full (even under LoRA) and keeps a frozen reward model.</source>
        <translation>训练目标：监督微调，或按 TRL 的实现进行的偏好优化。DPO、IPO、ORPO 和 SimPO 将每个样本的优选与劣选序列一起送入模型（微批次的激活和 logits 加倍）；DPO、IPO 和 KTO 还需要参考模型的对数概率（全参数微调时为模型的第二份冻结副本）。GRPO 和 PPO 在训练过程中生成序列；PPO 还全参数训练一个价值模型（即使使用 LoRA），并保留一个冻结的奖励模型。</translation>
    </message>
    <message>
        <source>PPO epochs</source>
        <translation>PPO 轮数</translation>
    </message>
    <message>
        <source>PPO&apos;s num_ppo_epochs: passes of training over each rollout (TRL default 4); the step time counts each.</source>
        <translation>PPO 的 num_ppo_epochs：每批 rollout 的训练遍数（TRL 默认 4）；步时计入每一遍。</translation>
    </message>
    <message>
        <source>TRL&apos;s PPOTrainer generates with transformers only (no vLLM): set generation to transformers</source>
        <translation>TRL 的 PPOTrainer 只用 transformers 生成（不支持 vLLM）：请将 generation 设为 transformers</translation>
    </message>
    <message>
        <source>completion_length %1 (PPO&apos;s response_length) leaves no query in seq_len %2</source>
        <translation>completion_length %1（PPO 的 response_length）在 seq_len %2 中没有给查询留下空间</translation>
    </message>
    <message>
        <source>PPO&apos;s queries come from the data: set seq_len to your longest query + response_length</source>
        <translation>PPO 的查询来自数据：请将 seq_len 设为最长查询 + response_length</translation>
    </message>
    <message>
        <source>Vision encoder</source>
        <translation>视觉编码器</translation>
    </message>
    <message>
        <source>%1: %2 blocks, width %3, %4-pixel patches; %5 with its projector (%6)</source>
        <translation>%1：%2 个块，宽度 %3，%4 像素图块；连同投影层共 %5（投影层 %6）</translation>
    </message>
    <message>
        <source>images_per_sample %1 is ignored: the model has no vision encoder this tool models (Qwen-VL, Gemma 3, LLaVA-1.5).</source>
        <translation>images_per_sample %1 被忽略：该模型没有本工具建模的视觉编码器（Qwen-VL、Gemma 3、LLaVA-1.5）。</translation>
    </message>
    <message>
        <source>&apos;mlp_ratio&apos; must be above 0 and at most 64</source>
        <translation>&apos;mlp_ratio&apos; 必须大于 0 且不超过 64</translation>
    </message>
    <message>
        <source>TRL&apos;s PPOTrainer has no image path: images_per_sample must be 0 for PPO</source>
        <translation>TRL 的 PPOTrainer 不支持图像：PPO 的 images_per_sample 必须为 0</translation>
    </message>
    <message>
        <source>&apos;%1&apos; must be between %2 and %3</source>
        <translation>&apos;%1&apos; 必须在 %2 到 %3 之间</translation>
    </message>
    <message>
        <source>+ 1 GPU for the vLLM server</source>
        <translation>另加 1 块 GPU 运行 vLLM 服务器</translation>
    </message>
    <message>
        <source>set vllm_gpus to %1 or more</source>
        <translation>将 vllm_gpus 设为 %1 或更多</translation>
    </message>
    <message>
        <source>no vLLM server of this card holds it</source>
        <translation>此型号卡组成的 vLLM 服务器都装不下它</translation>
    </message>
    <message>
        <source>the vLLM server&apos;s GPUs cannot load the model: %1 of 16-bit weights each, vllm-serve uses %2 of the card (%3); %4</source>
        <translation>vLLM 服务器的 GPU 装不下模型：每张需要 %1 的 16 位权重，vllm-serve 只使用该卡的 %2（%3）；%4</translation>
    </message>
    <message>
        <source>vLLM server needs %1 GPUs</source>
        <translation>vLLM 服务器需要 %1 块 GPU</translation>
    </message>
    <message>
        <source>vLLM server cannot load it</source>
        <translation>vLLM 服务器装不下</translation>
    </message>
    <message>
        <source>&apos;qk_norm&apos; must be &quot;per_head&quot;, &quot;projection&quot; or &quot;none&quot;</source>
        <translation>&apos;qk_norm&apos; 必须是 &quot;per_head&quot;、&quot;projection&quot; 或 &quot;none&quot;</translation>
    </message>
    <message>
        <source>the encoder and projector carry adapters and save %1 GiB for backward</source>
        <translation>视觉编码器与投影层带有适配器，为反向传播保存 %1 GiB</translation>
    </message>
    <message>
        <source>the encoder carries adapters and saves %1 GiB for backward (with the frozen projector&apos;s)</source>
        <translation>视觉编码器带有适配器，为反向传播保存 %1 GiB（含冻结投影层的部分）</translation>
    </message>
    <message>
        <source>Adapters on the image side</source>
        <translation>图像侧的适配器</translation>
    </message>
    <message>
        <source>A vision-language model: adapters on the vision encoder&apos;s linears too, or on the encoder&apos;s and the projector&apos;s. PEFT&apos;s all-linear reaches both (Gemma 3&apos;s projector is a bare weight and is not reached); LLaMA-Factory&apos;s all reaches neither unless freeze_vision_tower is false (then the encoder). The encoder then saves activations and runs backward.</source>
        <translation>视觉语言模型：适配器也加在视觉编码器的线性层上，或同时加在编码器和投影层的线性层上。PEFT 的 all-linear 两者都会覆盖（Gemma 3 的投影层是裸权重，不会被覆盖）；LLaMA-Factory 的 all 两者都不覆盖，除非 freeze_vision_tower 为 false（此时覆盖编码器）。这样编码器会保存激活并执行反向传播。</translation>
    </message>
    <message>
        <source>no vision encoder that trains or carries adapters</source>
        <translation>没有参与训练或带有适配器的视觉编码器</translation>
    </message>
    <message>
        <source>adapters on the language model only (lora.vision_targets %1 → none): no adapters or saved activations on the image side</source>
        <translation>适配器只加在语言模型上（lora.vision_targets %1 → none）：图像侧没有适配器，也不保存激活</translation>
    </message>
    <message>
        <source>none (the language model only)</source>
        <translation>无（仅语言模型）</translation>
    </message>
    <message>
        <source>the encoder</source>
        <translation>编码器</translation>
    </message>
    <message>
        <source>the encoder and the projector</source>
        <translation>编码器和投影层</translation>
    </message>
    <message>
        <source>moves them to the host between generation and training; the training step, the peak sized here, has them on the GPU (fsdp_workers.py L682, L720)</source>
        <translation>在生成与训练之间把它们移到主机内存；此处估算峰值的训练步中它们位于 GPU 上（fsdp_workers.py L682、L720）</translation>
    </message>
    <message>
        <source>vLLM&apos;s weights split over this many GPUs inside its share; the share, which is what the training GPUs give up, does not change</source>
        <translation>vLLM 的权重在其显存份额内切分到这么多块 GPU 上；训练 GPU 让出的份额本身不变</translation>
    </message>
    <message>
        <source>verl offloads the reference&apos;s parameters to the host whatever this says (FSDP CPUOffload)</source>
        <translation>无论此项如何设置，verl 都会把参考模型的参数卸载到主机内存（FSDP CPUOffload）</translation>
    </message>
    <message>
        <source>passes of training over each rollout: the same memory; the time of one pass is what the plan prices</source>
        <translation>每批 rollout 的训练遍数：显存相同；规划按一遍的时间计价</translation>
    </message>
    <message>
        <source>PPO with a critic (gae) is not imported: verl trains a critic model of its own (critic.model.path) beside the actor and generates with vLLM, which GPU Sizer&apos;s PPO (TRL&apos;s, transformers&apos; generation) does not size; set a critic-free estimator such as grpo</source>
        <translation>不导入带评论家模型的 PPO（gae）：verl 在 actor 之外训练自己的评论家模型（critic.model.path），并用 vLLM 生成，GPU Sizer 的 PPO（TRL 的实现、transformers 生成）无法估算；请设置无评论家的优势估计器，例如 grpo</translation>
    </message>
    <message>
        <source>%1 is sized as GRPO: the same rollouts and actor training, no critic</source>
        <translation>%1 按 GRPO 估算：rollout 与 actor 训练相同，没有评论家模型</translation>
    </message>
    <message>
        <source>GRPO compares the samples of a prompt: rollout.n must be 2 or more</source>
        <translation>GRPO 比较同一提示的多个样本：rollout.n 必须为 2 或更多</translation>
    </message>
    <message>
        <source>verl needs the rollout engine named: vllm, sglang or hf</source>
        <translation>verl 需要指定 rollout 引擎：vllm、sglang 或 hf</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a rollout engine GPU Sizer sizes (vllm, sglang, hf)</source>
        <translation>&apos;%1&apos; 不是 GPU Sizer 能估算的 rollout 引擎（vllm、sglang、hf）</translation>
    </message>
    <message>
        <source>SGLang sized as vLLM: its gpu_memory_utilization is mem_fraction_static, a share of the memory free when it starts (async_sglang_server.py L260)</source>
        <translation>SGLang 按 vLLM 估算：其 gpu_memory_utilization 即 mem_fraction_static，是启动时空闲显存的份额（async_sglang_server.py L260）</translation>
    </message>
    <message>
        <source>strategy &apos;%1&apos; is not imported (fsdp and fsdp2 are; Megatron runs from ppo_megatron_trainer.yaml)</source>
        <translation>不导入策略 &apos;%1&apos;（支持 fsdp 和 fsdp2；Megatron 使用 ppo_megatron_trainer.yaml 运行）</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a dtype GPU Sizer sizes here (fp32, bf16)</source>
        <translation>&apos;%1&apos; 不是此处 GPU Sizer 能估算的数据类型（fp32、bf16）</translation>
    </message>
    <message>
        <source>use_dynamic_bsz: micro-batches packed to %1 tokens, sized as %2 sequences of seq_len</source>
        <translation>use_dynamic_bsz：微批次按 %1 个 token 打包，按 %2 条长度为 seq_len 的序列估算</translation>
    </message>
    <message>
        <source>verl needs ppo_micro_batch_size_per_gpu unless use_dynamic_bsz is on</source>
        <translation>除非开启 use_dynamic_bsz，verl 需要 ppo_micro_batch_size_per_gpu</translation>
    </message>
    <message>
        <source>Loss: per-token log-probabilities from a fused cross-entropy that writes its gradient over the 16-bit logits, %1 B per logit element over every token of the micro-batch (verl&apos;s logprobs_from_logits_flash_attn).</source>
        <translation>损失：逐 token 对数概率由融合交叉熵计算，其梯度直接写回 16 位 logits，微批次每个 token 的每个 logit 元素 %1 B（verl 的 logprobs_from_logits_flash_attn）。</translation>
    </message>
    <message>
        <source>it excludes the image side: lora.vision_targets none</source>
        <translation>它排除了图像侧：lora.vision_targets 为 none</translation>
    </message>
    <message>
        <source>it excludes the projector: lora.vision_targets encoder</source>
        <translation>它排除了投影层：lora.vision_targets 为 encoder</translation>
    </message>
    <message>
        <source>Expected range: -%1% / +%2%, spanning measured / estimated over the %3 published runs behind this kind of run (%4, %5, %6; docs/accuracy.md, &quot;The band&quot;), at least the 5% run-to-run noise.</source>
        <translation>预期范围：-%1% / +%2%，覆盖此类运行所依据的 %3 个已发表运行的实测值 / 估算值（%4，%5，%6；docs/accuracy.md“The band”一节），且不窄于 5% 的运行间噪声。</translation>
    </message>
    <message>
        <source>framework named</source>
        <translation>已指定框架</translation>
    </message>
    <message>
        <source>no framework named</source>
        <translation>未指定框架</translation>
    </message>
    <message>
        <source>several data-parallel GPUs</source>
        <translation>多块数据并行 GPU</translation>
    </message>
    <message>
        <source>one data-parallel GPU</source>
        <translation>一块数据并行 GPU</translation>
    </message>
    <message>
        <source>no `python3 -m verl.trainer.main_ppo` or `python3 -m openrlhf.cli.…` command in the script</source>
        <translation>脚本中没有 `python3 -m verl.trainer.main_ppo` 或 `python3 -m openrlhf.cli.…` 命令</translation>
    </message>
    <message>
        <source>not a training config of a known format (Axolotl, LLaMA-Factory, torchtune, transformers / TRL, PEFT, bitsandbytes, accelerate, DeepSpeed, LitGPT, ArcticTraining, a verl or OpenRLHF launch script, or a config.json)</source>
        <translation>不是已知格式的训练配置（Axolotl、LLaMA-Factory、torchtune、transformers / TRL、PEFT、bitsandbytes、accelerate、DeepSpeed、LitGPT、ArcticTraining、verl 或 OpenRLHF 启动脚本，或 config.json）</translation>
    </message>
    <message>
        <source>the reference&apos;s own GPUs without colocation: not in the GPU count or the bill (noted)</source>
        <translation>不同置时参考模型自己的 GPU：不计入 GPU 数量和账单（已注明）</translation>
    </message>
    <message>
        <source>a reward model is not sized: on GPUs of its own without colocation, and noted as missing from the actor&apos;s GPUs with colocate_all</source>
        <translation>不估算奖励模型：不同置时它在自己的 GPU 上；使用 colocate_all 时注明其未计入 actor 的 GPU</translation>
    </message>
    <message>
        <source>the KL term in the loss rather than the reward: the same reference pass</source>
        <translation>KL 项放在损失而非奖励中：参考模型的前向相同</translation>
    </message>
    <message>
        <source>prompts per rollout: vLLM&apos;s KV cache lives in its share of the card, and the generation&apos;s time is priced per completion token</source>
        <translation>每次 rollout 的提示数：vLLM 的 KV 缓存位于其显存份额内，生成时间按补全 token 计价</translation>
    </message>
    <message>
        <source>moves the actor&apos;s optimizer states, gradients and master weights to the host between updates; the training step, the peak sized here, has them on the GPU</source>
        <translation>在两次更新之间把 actor 的优化器状态、梯度和主权重移到主机；此处估算的峰值（训练步骤）时它们在 GPU 上</translation>
    </message>
    <message>
        <source>CUDA graphs are captured inside vLLM&apos;s share of the card</source>
        <translation>CUDA graphs 在 vLLM 的显存份额内捕获</translation>
    </message>
    <message>
        <source>the loss&apos;s temperature: no memory or time</source>
        <translation>损失的温度：不影响显存或时间</translation>
    </message>
    <message>
        <source>passes over the data: the step count, not the step</source>
        <translation>遍历数据的轮数：影响步数，而非单步</translation>
    </message>
    <message>
        <source>openrlhf.cli.%1 is not imported (train_ppo_ray, train_dpo and train_sft are)</source>
        <translation>不导入 openrlhf.cli.%1（可导入 train_ppo_ray、train_dpo 和 train_sft）</translation>
    </message>
    <message>
        <source>PPO with a critic (gae, OpenRLHF&apos;s default) is not imported: OpenRLHF trains a critic model of its own beside the actor, on its own GPUs or colocated, which GPU Sizer&apos;s PPO (TRL&apos;s, policy and value in one backward) does not size; set a critic-free estimator such as group_norm</source>
        <translation>不导入带 critic 的 PPO（gae，OpenRLHF 的默认值）：OpenRLHF 在 actor 旁另训一个 critic 模型（在其自己的 GPU 上或同置），GPU Sizer 的 PPO（TRL 的，策略与价值在同一次反向中）不估算这种情形；请设置无 critic 的估计器，例如 group_norm</translation>
    </message>
    <message>
        <source>no rollout.max_new_tokens: a completion may fill what its prompt leaves of max_len, so completion_length is max_len − 1 (the longest); set it to size shorter completions</source>
        <translation>没有 rollout.max_new_tokens：补全可以占满提示在 max_len 中剩下的部分，因此 completion_length 取 max_len − 1（最长）；设置它以估算更短的补全</translation>
    </message>
    <message>
        <source>dynamic_batch_enable: micro-batches packed to %1 tokens, sized as %2 sequences of seq_len</source>
        <translation>dynamic_batch_enable：微批次按 %1 个 token 打包，按 %2 个 seq_len 长的序列估算</translation>
    </message>
    <message>
        <source>the reference model runs on GPUs of its own (ref.num_nodes × ref.num_gpus_per_node): not on the actor&apos;s, and not in the GPU count or the bill</source>
        <translation>参考模型在自己的 GPU 上运行（ref.num_nodes × ref.num_gpus_per_node）：不在 actor 的 GPU 上，也不计入 GPU 数量和账单</translation>
    </message>
    <message>
        <source>a reward model on the actor&apos;s GPUs is not sized: its weights (whole below ZeRO-3, sharded at it) add to every GPU</source>
        <translation>未估算 actor GPU 上的奖励模型：其权重（ZeRO-3 以下为完整副本，ZeRO-3 时分片）会加到每个 GPU 上</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a dtype OpenRLHF takes (bf16, fp16)</source>
        <translation>&apos;%1&apos; 不是 OpenRLHF 接受的数据类型（bf16、fp16）</translation>
    </message>
    <message>
        <source>written %1, OpenRLHF&apos;s name before v0.10.2: read as --%2</source>
        <translation>写作 %1，这是 OpenRLHF v0.10.2 之前的名称：按 --%2 读取</translation>
    </message>
    <message>
        <source>verl keeps the reference model&apos;s parameters on the host (FSDP CPUOffload, fsdp_workers.py L524-526, L552) and gathers them only for its log-prob pass: the framework override reference_off_training_gpus leaves its copy out of the training step&apos;s peak</source>
        <translation>verl 将参考模型的参数保存在主机上（FSDP CPUOffload，fsdp_workers.py L524-526、L552），仅在计算对数概率时才聚合：框架覆盖项 reference_off_training_gpus 将其副本排除在训练步骤的峰值之外</translation>
    </message>
    <message>
        <source>Loss: per-token log-probabilities of the whole output upcast to fp32, through flash-attn&apos;s cross-entropy, %1 B per logit element over every token of the micro-batch at its backward (OpenRLHF&apos;s Actor.forward).</source>
        <translation>损失：整个输出上转换为 fp32 后经 flash-attn 交叉熵计算的逐 token 对数概率，在其反向时对微批次的每个 token 每个 logit 元素占 %1 B（OpenRLHF 的 Actor.forward）。</translation>
    </message>
    <message>
        <source>line %1 starts a second `%2` command: import one run per script</source>
        <translation>第 %1 行开始了第二条 `%2` 命令：每个脚本只导入一次运行</translation>
    </message>
    <message>
        <source>line %1: options passed through a bash array (%2) are not read; write them on the command</source>
        <translation>第 %1 行：通过 bash 数组（%2）传入的选项不会被读取；请把它们写在命令上</translation>
    </message>
    <message>
        <source>GPU Sizer sizes these estimators as GRPO, which compares the samples of a prompt: rollout.n_samples_per_prompt must be 2 or more</source>
        <translation>GPU Sizer 按 GRPO 估算这些估计器，GRPO 需比较同一提示的多个样本：rollout.n_samples_per_prompt 必须不小于 2</translation>
    </message>
    <message>
        <source>OpenRLHF generates with vLLM only (samples_generator.py): set vllm.num_engines</source>
        <translation>OpenRLHF 只用 vLLM 生成（samples_generator.py）：请设置 vllm.num_engines</translation>
    </message>
    <message>
        <source>below ZeRO-3 the reference&apos;s eval config runs stage 0, where DeepSpeed&apos;s engine moves the module to the GPU: offload_param does not apply, and its copy is counted</source>
        <translation>在 ZeRO-3 以下，参考模型的评估配置运行 stage 0，DeepSpeed 引擎会把模块移到 GPU 上：offload_param 不起作用，其副本计入估算</translation>
    </message>
    <message>
        <source>given at all, the actor computes the entropy of its fp32 logits (a compiled softmax, held through backward): not sized beside the log-probs&apos; bytes per logit element, so the estimate is low by what it keeps</source>
        <translation>只要给出该参数，actor 就会计算其 fp32 logits 的熵（编译后的 softmax，保留到反向传播）：未在对数概率的每 logit 元素字节数之外计入，因此估算值偏低相应的量</translation>
    </message>
    <message>
        <source>&apos;gpusizer_family&apos; must be one of qwen_vl, gemma3, llava, mllama</source>
        <translation>&apos;gpusizer_family&apos; 必须是 qwen_vl、gemma3、llava、mllama 之一</translation>
    </message>
    <message>
        <source>a Llama-3.2-Vision encoder needs hidden_size, num_hidden_layers, patch_size of at least 1, image_size of at least patch_size and max_num_tiles between 1 and 64</source>
        <translation>Llama-3.2-Vision 编码器需要 hidden_size、num_hidden_layers、patch_size 至少为 1，image_size 不小于 patch_size，且 max_num_tiles 在 1 到 64 之间</translation>
    </message>
    <message>
        <source>the frozen encoder still records its graph (transformers 5 makes its patch embedding&apos;s output require grad under checkpointing, and its layers are not checkpointed) and saves %1 GiB for backward</source>
        <translation>冻结的编码器仍会记录其计算图（transformers 5 在激活检查点下使其 patch 嵌入的输出需要梯度，而其各层不做激活检查点），为反向传播保留 %1 GiB</translation>
    </message>
    <message>
        <source>a Llama-3.2-Vision encoder needs max_tiles between 1 and 64, an image_size of at least patch_size (at most 10^6), at most 64 aspect_ratios and gated_blocks and stacked_outputs within depth</source>
        <translation>Llama-3.2-Vision 编码器需要 max_tiles 在 1 到 64 之间，image_size 不小于 patch_size（至多 10^6），aspect_ratios 至多 64 个，gated_blocks 和 stacked_outputs 不超过 depth</translation>
    </message>
    <message>
        <source>supported_aspect_ratios may list at most 64 and intermediate_layers_indices at most the encoder&apos;s layers</source>
        <translation>supported_aspect_ratios 至多列出 64 个，intermediate_layers_indices 不超过编码器的层数</translation>
    </message>
    <message>
        <source>Llama-3.2-Vision&apos;s cross-attention does not run under flash-attention (its module has no is_causal, which transformers&apos; flash path reads: modeling_mllama.py, flash_attention.py L74): use sdpa or eager</source>
        <translation>Llama-3.2-Vision 的交叉注意力无法在 flash-attention 下运行（其模块没有 is_causal，而 transformers 的 flash 路径会读取它：modeling_mllama.py，flash_attention.py L74）：请使用 sdpa 或 eager</translation>
    </message>
    <message>
        <source>cross_attention_layers lists more layers than num_hidden_layers</source>
        <translation>cross_attention_layers 列出的层数多于 num_hidden_layers</translation>
    </message>
    <message>
        <source>Images: %1 per example, each one &lt;|image|&gt; token of seq_len, fitted by Llama-3.2-Vision&apos;s processor to a %3 px canvas of %2 tiles (padded to %4: the encoder runs over %5 patches), read by the language model&apos;s %6 cross-attention layers as %7 tokens, whose tensors over them keep %8 GiB for backward; %9.</source>
        <translation>图像：每个样本 %1 张，每张在 seq_len 中占一个 &lt;|image|&gt; token，由 Llama-3.2-Vision 的处理器适配为 %3 px、共 %2 块的画布（填充到 %4 块：编码器在 %5 个 patch 上运行），语言模型的 %6 个交叉注意力层将其作为 %7 个 token 读取，这些层在其上的张量为反向传播保留 %8 GiB；%9。</translation>
    </message>
    <message>
        <source>The reference model is a second frozen copy of the model: %1 GiB per GPU in the weights. This framework loads it under LoRA too (reference_copy_with_adapters).</source>
        <translation>参考模型是模型的第二份冻结副本：权重中每 GPU %1 GiB。该框架在 LoRA 下也会加载它（reference_copy_with_adapters）。</translation>
    </message>
    <message>
        <source>The reference model is loaded apart from the adapters&apos; policy, as the framework does (reference_copy_with_adapters): a frozen copy of the base model, %1 GiB per GPU in the weights.</source>
        <translation>参考模型按框架的做法独立于适配器策略加载（reference_copy_with_adapters）：基础模型的一份冻结副本，权重中每 GPU %1 GiB。</translation>
    </message>
    <message>
        <source>The measurement script runs neither PPO, a sharded GRPO run nor images: launch a few steps of your own run there, log torch.cuda.max_memory_allocated after each and compare it with the estimate (docs/verify.md).</source>
        <translation>测量脚本不运行 PPO、分片的 GRPO 运行或图像：请在该处启动您自己运行的几个步骤，每步后记录 torch.cuda.max_memory_allocated，并与估算比较（docs/verify.md）。</translation>
    </message>
    <message>
        <source>Export the measurement script and run it there (%1): it generates with transformers, not vLLM, so it checks the training step and not vLLM&apos;s share; for that, launch a few steps of your own run with memory reporting.</source>
        <translation>导出测量脚本并在该处运行（%1）：它使用 transformers 而非 vLLM 生成，因此检查的是训练步骤，而不是 vLLM 的显存份额；要检查后者，请启动您自己运行的几个步骤并报告显存。</translation>
    </message>
    <message>
        <source>&apos;%1&apos; must list 1 to 64 [height, width] pairs of whole pixels from 1 to 16384</source>
        <translation>“%1”必须列出 1 到 64 个 [高度, 宽度] 对，每项为 1 到 16384 的整数像素</translation>
    </message>
    <message>
        <source>model_type &apos;%1&apos; has a vision encoder this tool does not model (Qwen2-VL, Qwen2.5-VL, Qwen3-VL, Gemma 3, LLaVA-1.5, LLaVA-NeXT and Llama-3.2-Vision are): only its language model is sized, and images count as nothing beyond their tokens in seq_len</source>
        <translation>model_type &apos;%1&apos; 的视觉编码器本工具不建模（已建模：Qwen2-VL、Qwen2.5-VL、Qwen3-VL、Gemma 3、LLaVA-1.5、LLaVA-NeXT 和 Llama-3.2-Vision）：只估算其语言模型，图像除其在 seq_len 中的 token 外不计入</translation>
    </message>
    <message>
        <source>a run that generates as it trains (GRPO) was left out of the HFU fit: its generation&apos;s time is not the matmuls&apos;</source>
        <translation>一个边训练边生成的运行（GRPO）未纳入 HFU 拟合：其生成时间不属于矩阵乘法</translation>
    </message>
    <message>
        <source>&apos;compute_capability&apos; is NVIDIA&apos;s CUDA version of a card: leave it out for other vendors</source>
        <translation>“compute_capability”是 NVIDIA 显卡的 CUDA 计算能力版本：其他厂商的卡请勿填写</translation>
    </message>
    <message>
        <source>ColossalAI (ColossalChat)</source>
        <translation>ColossalAI（ColossalChat）</translation>
    </message>
    <message>
        <source>Sharding by ColossalAI&apos;s LowLevelZero, ZeRO stage %1 in effect, with the layout of DeepSpeed&apos;s ZeRO-1/2 and its own buckets.</source>
        <translation>由 ColossalAI 的 LowLevelZero 分片，生效的 ZeRO 阶段为 %1，采用 DeepSpeed ZeRO-1/2 的布局及其自身的桶。</translation>
    </message>
    <message>
        <source>ColossalAI</source>
        <translation>ColossalAI</translation>
    </message>
    <message>
        <source>Sharding by ColossalAI&apos;s Gemini, static placement: 16-bit parameter chunks whose shards also hold the gradients, an fp32 master and Adam states, each divided over %1 GPUs; two chunks gathered at a time.</source>
        <translation>由 ColossalAI 的 Gemini 分片，静态放置：16 位参数块（其分片同时存放梯度）、fp32 主权重和 Adam 状态，均在 %1 个 GPU 上切分；同一时刻聚合两个块。</translation>
    </message>
    <message>
        <source>ColossalAI&apos;s LowLevelZero and Gemini keep an fp32 master copy and fp32 optimizer states for 16-bit weights (master_weights=True): sized as %1 rather than %2.</source>
        <translation>ColossalAI 的 LowLevelZero 和 Gemini 为 16 位权重保留 fp32 主权重副本和 fp32 优化器状态（master_weights=True）：按 %1 而非 %2 估算。</translation>
    </message>
    <message>
        <source>ColossalAI Gemini</source>
        <translation>ColossalAI Gemini</translation>
    </message>
    <message>
        <source>Who shards: DeepSpeed ZeRO, FSDP1 (flat parameters), FSDP2 (per parameter), Megatron&apos;s distributed optimizer or ColossalAI&apos;s Gemini (parameter chunks); auto follows the framework. Decides gathered parameters, offload and gradients of frozen weights.</source>
        <translation>由谁分片：DeepSpeed ZeRO、FSDP1（扁平参数）、FSDP2（按参数）、Megatron 的分布式优化器或 ColossalAI 的 Gemini（参数块）；auto 跟随框架。决定聚合的参数、卸载以及冻结权重的梯度。</translation>
    </message>
    <message>
        <source>Gemini is ColossalAI&apos;s plugin: choose the colossalai framework</source>
        <translation>Gemini 是 ColossalAI 的插件：请选择 colossalai 框架</translation>
    </message>
    <message>
        <source>ColossalAI&apos;s tensor and pipeline parallelism (its HybridParallelPlugin) are not modelled: choose LowLevelZero (sharding zero1 or zero2) or Gemini (zero3), or another framework</source>
        <translation>未对 ColossalAI 的张量并行和流水线并行（其 HybridParallelPlugin）建模：请选择 LowLevelZero（分片 zero1 或 zero2）或 Gemini（zero3），或其他框架</translation>
    </message>
    <message>
        <source>ColossalAI shards parameters and offloads them with Gemini only: leave sharding_engine on auto with sharding zero3, or choose zero1 or zero2 for LowLevelZero</source>
        <translation>ColossalAI 只通过 Gemini 对参数分片和卸载：请将 sharding_engine 保持为 auto 并使用分片 zero3，或为 LowLevelZero 选择 zero1 或 zero2</translation>
    </message>
    <message>
        <source>Gemini shards parameters, gradients and optimizer states over the data-parallel GPUs: choose sharding zero3</source>
        <translation>Gemini 在数据并行 GPU 上对参数、梯度和优化器状态分片：请选择分片 zero3</translation>
    </message>
    <message>
        <source>ColossalChat refuses LoRA under Gemini: choose full fine-tuning, or LowLevelZero (sharding zero1 or zero2) for adapters</source>
        <translation>ColossalChat 不允许在 Gemini 下使用 LoRA：请选择全参数微调，或为适配器使用 LowLevelZero（分片 zero1 或 zero2）</translation>
    </message>
    <message>
        <source>Gemini keeps frozen parameters whole, in 16 bits, on every GPU (gemini_ddp.py _init_chunks): freeze tuning under Gemini is not modelled</source>
        <translation>Gemini 在每个 GPU 上以 16 位完整保留冻结参数（gemini_ddp.py _init_chunks）：未对 Gemini 下的冻结层微调建模</translation>
    </message>
    <message>
        <source>Gemini stores parameters in fp16 or bf16 with an fp32 master (GeminiPlugin precision &quot;fp16&quot; or &quot;bf16&quot;): choose bf16-fp32-master or fp16-fp32-master</source>
        <translation>Gemini 以 fp16 或 bf16 存储参数并保留 fp32 主权重（GeminiPlugin precision 为 &quot;fp16&quot; 或 &quot;bf16&quot;）：请选择 bf16-fp32-master 或 fp16-fp32-master</translation>
    </message>
    <message>
        <source>Gemini steps Adam only (HybridAdam, CPUAdam or FusedAdam: gemini_optimizer.py _AVAIL_OPTIM_LIST): choose adamw</source>
        <translation>Gemini 只执行 Adam 优化步骤（HybridAdam、CPUAdam 或 FusedAdam：gemini_optimizer.py _AVAIL_OPTIM_LIST）：请选择 adamw</translation>
    </message>
    <message>
        <source>Sharding by ColossalAI&apos;s Gemini with its auto placement (ColossalChat&apos;s gemini_auto): the fp32 master and Adam states on the host, the 16-bit chunk shards on the %1 GPUs, and what must fit is sized as with the static placement&apos;s offload_optim_frac 1.0.</source>
        <translation>由 ColossalAI 的 Gemini 以其 auto 放置策略分片（ColossalChat 的 gemini_auto）：fp32 主权重和 Adam 状态在主机上，16 位参数块的分片在 %1 个 GPU 上；必须放得下的部分按静态放置、offload_optim_frac 为 1.0 的情形估算。</translation>
    </message>
    <message>
        <source>Gemini&apos;s auto placement leaves up to %1 GiB more of gathered 16-bit chunks on the GPU while the card has room (at most 90% of it, less the activations), and moves them to the host when memory is needed: torch reports up to %2 GiB allocated, the fit uses %3 GiB.</source>
        <translation>Gemini 的 auto 放置策略在显卡有余量时（最多占该卡的 90%，减去激活值）会在 GPU 上多保留至多 %1 GiB 已聚合的 16 位参数块，需要显存时再把它们移到主机：torch 报告的已分配显存至多为 %2 GiB，是否放得下按 %3 GiB 判断。</translation>
    </message>
    <message>
        <source>Gemini with optimizer offload is its auto placement, which ColossalChat runs without gradient accumulation (train_sft.py L33-34): set gradient_accumulation to 1, or offload optimizer+params (the static placement)</source>
        <translation>带优化器卸载的 Gemini 即其 auto 放置策略，ColossalChat 在此策略下不使用梯度累积（train_sft.py L33-34）：请将 gradient_accumulation 设为 1，或卸载 optimizer+params（静态放置）</translation>
    </message>
    <message>
        <source>Sharding by ColossalAI&apos;s Gemini, static placement with offload_optim_frac and offload_param_frac 1.0: only the gathered chunks on each of the %1 GPUs.</source>
        <translation>由 ColossalAI 的 Gemini 分片，静态放置且 offload_optim_frac 与 offload_param_frac 均为 1.0：%1 个 GPU 上各自只有聚合中的块。</translation>
    </message>
    <message>
        <source>the frozen encoder still records its graph (transformers 5 makes its patch embedding&apos;s output require grad under checkpointing): its checkpointed blocks save their inputs, %1 GiB for backward, and run backward</source>
        <translation>冻结的编码器仍会记录其计算图（transformers 5 在激活检查点下使其 patch 嵌入的输出需要梯度）：其做了激活检查点的各块保存各自的输入，为反向传播保留 %1 GiB，并执行反向传播</translation>
    </message>
    <message>
        <source>4.49 or later</source>
        <translation>4.49 或更高版本</translation>
    </message>
    <message>
        <source>The transformers release the run uses: 4.46 to 4.48 make one more fp32 copy of the logits; 4.45 and older return fp32 logits from the model; before 4.54 SDPA repeats grouped key/value heads; 5.x (current) runs experts through grouped_mm and makes a frozen vision encoder record its graph under checkpointing.</source>
        <translation>运行所用的 transformers 版本：4.46 至 4.48 会多做一份 logits 的 fp32 副本；4.45 及更早版本由模型返回 fp32 logits；4.54 之前 SDPA 会复制分组的键/值头；5.x（当前）通过 grouped_mm 运行专家，并在激活检查点下使冻结的视觉编码器记录其计算图。</translation>
    </message>
    <message>
        <source>5.x (current)</source>
        <translation>5.x（当前）</translation>
    </message>
    <message>
        <source>4.54 to 4.57</source>
        <translation>4.54 至 4.57</translation>
    </message>
    <message>
        <source>4.49 to 4.53</source>
        <translation>4.49 至 4.53</translation>
    </message>
</context>
<context>
    <name>gpusizer::ui::AdvisorView</name>
    <message>
        <source>Out of memory? Fixes in order of cost, computed for this scenario</source>
        <translation>显存不足？以下是按成本从低到高排列、针对此场景计算的解决办法</translation>
    </message>
    <message>
        <source>(the scenario&apos;s GPU, else RTX 4090)</source>
        <translation>（场景所用 GPU，否则为 RTX 4090）</translation>
    </message>
    <message>
        <source>The card the run must fit.</source>
        <translation>运行必须能放下的 GPU。</translation>
    </message>
    <message>
        <source>Must fit &amp;on</source>
        <translation>必须放得下的 GPU(&amp;O)</translation>
    </message>
    <message>
        <source>Out-of-memory fixes</source>
        <translation>显存不足的解决办法</translation>
    </message>
    <message>
        <source>Which method?</source>
        <translation>选哪种方法？</translation>
    </message>
    <message>
        <source>close to what it already does</source>
        <translation>与模型已有能力接近</translation>
    </message>
    <message>
        <source>somewhat different</source>
        <translation>有一定差异</translation>
    </message>
    <message>
        <source>far from it</source>
        <translation>差异很大</translation>
    </message>
    <message>
        <source>How far the task is from what the model already does (style vs new skills).</source>
        <translation>任务与模型已有能力的差距（风格调整 vs 新技能）。</translation>
    </message>
    <message>
        <source>small (under 10k examples)</source>
        <translation>小（少于 1 万条样本）</translation>
    </message>
    <message>
        <source>medium</source>
        <translation>中</translation>
    </message>
    <message>
        <source>large (millions of tokens and more)</source>
        <translation>大（数百万 token 及以上）</translation>
    </message>
    <message>
        <source>How much training data there is.</source>
        <translation>训练数据量。</translation>
    </message>
    <message>
        <source>a small quality loss is fine for a large cost cut</source>
        <translation>可接受小幅质量损失以大幅降低成本</translation>
    </message>
    <message>
        <source>QLoRA trades a little quality for a 4-bit base.</source>
        <translation>QLoRA 以少量质量损失换取 4 位基座模型。</translation>
    </message>
    <message>
        <source>merged into the model</source>
        <translation>合并到模型中</translation>
    </message>
    <message>
        <source>as separate adapters</source>
        <translation>作为独立的适配器</translation>
    </message>
    <message>
        <source>How the result will be served.</source>
        <translation>结果的部署方式。</translation>
    </message>
    <message>
        <source>&amp;Data</source>
        <translation>数据(&amp;D)</translation>
    </message>
    <message>
        <source>Sizing table at this sequence length and batch</source>
        <translation>当前序列长度和批次下的选型表</translation>
    </message>
    <message>
        <source>Sizing table</source>
        <translation>选型表</translation>
    </message>
    <message>
        <source>Th&amp;e task is</source>
        <translation>任务是(&amp;E)</translation>
    </message>
    <message>
        <source>Se&amp;rved</source>
        <translation>部署方式(&amp;R)</translation>
    </message>
    <message>
        <source>Change the sequence length to see the cells move.</source>
        <translation>改变序列长度，可看到各格随之变化。</translation>
    </message>
</context>
<context>
    <name>gpusizer::ui::BreakdownChartView</name>
    <message>
        <source>Memory breakdown per GPU</source>
        <translation>每 GPU 显存明细</translation>
    </message>
    <message>
        <source>GiB per GPU</source>
        <translation>每 GPU 显存（GiB）</translation>
    </message>
    <message>
        <source>Expected range</source>
        <translation>预期范围</translation>
    </message>
</context>
<context>
    <name>gpusizer::ui::BreakdownView</name>
    <message>
        <source>Memory components per GPU</source>
        <translation>每 GPU 显存组成</translation>
    </message>
    <message>
        <source>Each of %1 GPUs</source>
        <translation>%1 个 GPU 中的每一个</translation>
    </message>
    <message>
        <source>Per GPU</source>
        <translation>每 GPU</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;b&gt;Measured runs&lt;/b&gt;</source>
        <translation>&lt;br&gt;&lt;b&gt;实测运行&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>结论</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1 per GPU&lt;/b&gt; on the device (nvidia-smi), expected %2 – %3.&lt;br&gt;Allocated peak (torch.cuda.max_memory_allocated): %4 · reserved: %5 for the fit, %9 on a card with room (max_memory_reserved).&lt;br&gt;Peak moment: %6 · %7 parameters, %8 trainable.</source>
        <translation>&lt;b&gt;每 GPU %1&lt;/b&gt; 设备显存（nvidia-smi），预期范围 %2 – %3。&lt;br&gt;已分配峰值（torch.cuda.max_memory_allocated）：%4 · 已保留：适配判断用 %5，显存充裕的卡上 %9（max_memory_reserved）。&lt;br&gt;峰值时刻：%6 · 参数 %7，其中可训练 %8。</translation>
    </message>
</context>
<context>
    <name>gpusizer::ui::CompareView</name>
    <message>
        <source>Methods: Full / LoRA / QLoRA</source>
        <translation>方法：全参数 / LoRA / QLoRA</translation>
    </message>
    <message>
        <source>Optimizers: AdamW / 8-bit AdamW / Adafactor / SGD</source>
        <translation>优化器：AdamW / 8 位 AdamW / Adafactor / SGD</translation>
    </message>
    <message>
        <source>Precision recipes</source>
        <translation>精度方案</translation>
    </message>
    <message>
        <source>What to vary; everything else stays as in the scenario.</source>
        <translation>要改变的项；其余设置均保持场景中的值。</translation>
    </message>
    <message>
        <source>Comparison table</source>
        <translation>对比表</translation>
    </message>
    <message>
        <source>Compa&amp;re</source>
        <translation>对比(&amp;R)</translation>
    </message>
</context>
<context>
    <name>gpusizer::ui::CostTimeChartView</name>
    <message>
        <source>Cost against time</source>
        <translation>成本与时间</translation>
    </message>
    <message>
        <source>Wall-clock hours</source>
        <translation>实际耗时（小时）</translation>
    </message>
    <message>
        <source>Cost, USD</source>
        <translation>成本（美元）</translation>
    </message>
    <message>
        <source>One GPU model</source>
        <translation>单一 GPU 型号</translation>
    </message>
    <message>
        <source>Chosen, cheapest, fastest</source>
        <translation>已选、最便宜、最快</translation>
    </message>
</context>
<context>
    <name>gpusizer::ui::FitView</name>
    <message>
        <source>All vendors</source>
        <translation>所有厂商</translation>
    </message>
    <message>
        <source>Show only this vendor&apos;s cards.</source>
        <translation>仅显示该厂商的 GPU。</translation>
    </message>
    <message>
        <source> GiB</source>
        <translation> GiB</translation>
    </message>
    <message>
        <source>Hide cards with less usable memory than this.</source>
        <translation>隐藏可用显存低于此值的 GPU。</translation>
    </message>
    <message>
        <source>Your layout: green fits with the margin · amber tight (only the estimate fits) or fits with the planner&apos;s layout · red nothing fits. Best on this card: what the planner would rent (objective and limits on the Plan tab). Memory per GPU, GiB.</source>
        <translation>您的并行布局：绿色表示留足余量也放得下 · 琥珀色表示紧张（仅估算值放得下）或采用规划器的并行布局时放得下 · 红色表示都放不下。此卡最佳：规划器会租用的配置（目标和限制见“规划”选项卡）。每 GPU 显存，单位 GiB。</translation>
    </message>
    <message>
        <source>GPU fit table</source>
        <translation>GPU 适配表</translation>
    </message>
    <message>
        <source>Ven&amp;dor</source>
        <translation>厂商(&amp;D)</translation>
    </message>
    <message>
        <source>Minimum m&amp;emory</source>
        <translation>最小显存(&amp;E)</translation>
    </message>
</context>
<context>
    <name>gpusizer::ui::ImportReportDialog</name>
    <message>
        <source>used</source>
        <translation>已使用</translation>
    </message>
    <message>
        <source>default taken</source>
        <translation>采用默认值</translation>
    </message>
    <message>
        <source>ignored</source>
        <translation>已忽略</translation>
    </message>
    <message>
        <source>note</source>
        <translation>说明</translation>
    </message>
    <message>
        <source>Import report</source>
        <translation>导入报告</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message numerus="yes">
        <source>%n key(s) used</source>
        <translation>
            <numerusform>已使用 %n 个键</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n default(s) taken</source>
        <translation>
            <numerusform>%n 项采用默认值</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n key(s) ignored</source>
        <translation>
            <numerusform>已忽略 %n 个键</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n note(s)</source>
        <translation>
            <numerusform>%n 条说明</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;Read %2. %3. The scenario keeps this report in its notes (File › Show import report).</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;已读取 %2。%3。场景会将此报告保存在其备注中（文件 › 显示导入报告）。</translation>
    </message>
    <message>
        <source>&amp;Show:</source>
        <translation>显示(&amp;S)：</translation>
    </message>
    <message>
        <source>everything</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>What</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Scenario field</source>
        <translation>场景字段</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>Source or reason</source>
        <translation>来源或原因</translation>
    </message>
    <message>
        <source>%1 · %2: %3</source>
        <translation>%1 · %2：%3</translation>
    </message>
</context>
<context>
    <name>gpusizer::ui::InputPanel</name>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>The model to train: its architecture sets the parameter count and activation sizes.</source>
        <translation>要训练的模型：其架构决定参数量和激活值大小。</translation>
    </message>
    <message>
        <source>&amp;Import config.json…</source>
        <translation>导入 config.json(&amp;I)…</translation>
    </message>
    <message>
        <source>Read a Hugging Face config.json to size a model that is not in the catalog.</source>
        <translation>读取 Hugging Face config.json，以估算不在目录中的模型。</translation>
    </message>
    <message>
        <source>&amp;Model</source>
        <translation>模型(&amp;M)</translation>
    </message>
    <message>
        <source>Model size (log scale, 0.1 B to 1 T parameters): moving it sizes a Llama-style model of that size, with a wider error band.</source>
        <translation>模型规模（对数刻度，0.1 B 至 1 T 参数）：拖动时按该规模估算一个 Llama 式模型，误差范围更宽。</translation>
    </message>
    <message>
        <source>Model si&amp;ze</source>
        <translation>模型规模(&amp;Z)</translation>
    </message>
    <message>
        <source>Tokens per sequence (powers of two): activations and logits grow with it — use your longest sequence, not the average.</source>
        <translation>每个序列的 token 数（2 的幂）：激活值和 logits 随之增长——请使用最长序列，而非平均长度。</translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> 个 token</translation>
    </message>
    <message>
        <source>Type any sequence length.</source>
        <translation>可输入任意序列长度。</translation>
    </message>
    <message>
        <source>&amp;Sequence length</source>
        <translation>序列长度(&amp;S)</translation>
    </message>
    <message>
        <source>Sequences per GPU per forward pass: activations and logits grow linearly with it.</source>
        <translation>每 GPU 每次前向传播的序列数：激活值和 logits 随之线性增长。</translation>
    </message>
    <message>
        <source>Type any micro-batch size.</source>
        <translation>可输入任意微批次大小。</translation>
    </message>
    <message>
        <source>Micro-&amp;batch</source>
        <translation>微批次(&amp;B)</translation>
    </message>
    <message>
        <source>&amp;LoRA</source>
        <translation>LoRA(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;QLoRA</source>
        <translation>QLoRA(&amp;Q)</translation>
    </message>
    <message>
        <source>Full fine-tuning: every weight trains, with gradients and optimizer states for all of them.</source>
        <translation>全参数微调：所有权重都参与训练，且每个权重都有对应的梯度和优化器状态。</translation>
    </message>
    <message>
        <source>LoRA: the base is frozen; only small adapters train, so gradients and optimizer states nearly vanish.</source>
        <translation>LoRA：基础模型冻结；只训练小型适配器，因此梯度和优化器状态几乎可以忽略。</translation>
    </message>
    <message>
        <source>QLoRA: LoRA on a base stored in 4 bits, cutting the weights to about a quarter.</source>
        <translation>QLoRA：在以 4 位存储的基础模型上应用 LoRA，权重显存约减至四分之一。</translation>
    </message>
    <message>
        <source>Method</source>
        <translation>方法</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>%1 — %2 GB</source>
        <translation>%1 — %2 GB</translation>
    </message>
    <message>
        <source>The card you have in mind: its usable memory is drawn across the charts.</source>
        <translation>您计划使用的 GPU：其可用显存会在各图表中标出。</translation>
    </message>
    <message>
        <source>&amp;GPU</source>
        <translation>GPU(&amp;G)</translation>
    </message>
    <message>
        <source>Precision, optimizer, LoRA, checkpointing, attention, loss, framework and multi-GPU layout.</source>
        <translation>精度、优化器、LoRA、激活检查点、注意力、损失、框架和多 GPU 并行布局。</translation>
    </message>
    <message>
        <source>Put a LoRA adapter on this projection in every layer.</source>
        <translation>在每一层的此投影上添加 LoRA 适配器。</translation>
    </message>
    <message>
        <source>Adapter on lm_head</source>
        <translation>在 lm_head 上添加适配器</translation>
    </message>
    <message>
        <source>A LoRA adapter on the output projection (PEFT target &quot;lm_head&quot;, LitGPT lora_head): r × (hidden + vocabulary) more trainable parameters.</source>
        <translation>在输出投影上添加 LoRA 适配器（PEFT 目标 &quot;lm_head&quot;，LitGPT lora_head）：可训练参数增加 r × (hidden + vocabulary) 个。</translation>
    </message>
    <message>
        <source>Full copies: lm_head, embeddings</source>
        <translation>完整副本：lm_head，嵌入层</translation>
    </message>
    <message>
        <source>Size only (slider)</source>
        <translation>仅按规模（滑块）</translation>
    </message>
    <message>
        <source>Imported: %1</source>
        <translation>已导入：%1</translation>
    </message>
    <message>
        <source>%1 parameters%2</source>
        <translation>%1 参数%2</translation>
    </message>
    <message>
        <source> (Llama-style, derived from the size)</source>
        <translation> (Llama 式，由规模推算)</translation>
    </message>
    <message>
        <source>F&amp;ull</source>
        <translation>全参数(&amp;U)</translation>
    </message>
    <message>
        <source>Advanced optio&amp;ns</source>
        <translation>高级选项(&amp;N)</translation>
    </message>
</context>
<context>
    <name>gpusizer::ui::LengthsChartView</name>
    <message>
        <source>Examples per length</source>
        <translation>各长度的样本数</translation>
    </message>
    <message>
        <source>Examples</source>
        <translation>样本数</translation>
    </message>
    <message>
        <source>Tokens per example</source>
        <translation>每个样本的词元数</translation>
    </message>
</context>
<context>
    <name>gpusizer::ui::LengthsDialog</name>
    <message>
        <source>Your data&apos;s lengths</source>
        <translation>你的数据长度</translation>
    </message>
    <message>
        <source>Memory is sized for the sequence length: the longest example cuts nothing; a percentile truncates the examples above it.</source>
        <translation>显存按序列长度估算：按最长样本则不截断任何样本；按百分位则截断超出它的样本。</translation>
    </message>
    <message>
        <source>Size &amp;by:</source>
        <translation>估算依据(&amp;B)：</translation>
    </message>
    <message>
        <source>The scenario keeps these lengths; the Plan tab prices their tokens unless you state others.</source>
        <translation>场景会保存这些长度；除非你另行指定，计划页按这些词元计价。</translation>
    </message>
    <message>
        <source>&amp;Set the sequence length</source>
        <translation>设置序列长度(&amp;S)</translation>
    </message>
</context>
<context>
    <name>gpusizer::ui::MainWindow</name>
    <message>
        <source>&amp;Compare</source>
        <translation>方法对比(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Plan</source>
        <translation>规划(&amp;P)</translation>
    </message>
    <message>
        <source>Cards, layout, time and cost per GPU; cost vs time; scaling over PCIe and NVLink (Ctrl+5)</source>
        <translation>各 GPU 的数量、并行布局、时间与成本；成本与时间对比；PCIe 与 NVLink 下的扩展性（Ctrl+5）</translation>
    </message>
    <message>
        <source>&amp;Advisor</source>
        <translation>顾问(&amp;A)</translation>
    </message>
    <message>
        <source>Fix an OOM in the cheapest order, choose the method, read the sizing table (Ctrl+6)</source>
        <translation>按代价从低到高解决 OOM、选择方法、查看选型表（Ctrl+6）</translation>
    </message>
    <message>
        <source>Memory per GPU, component by component (Ctrl+1)</source>
        <translation>每 GPU 显存，逐项列出（Ctrl+1）</translation>
    </message>
    <message>
        <source>Memory against sequence length, with GPU capacities (Ctrl+2)</source>
        <translation>显存随序列长度的变化，并标出 GPU 容量（Ctrl+2）</translation>
    </message>
    <message>
        <source>Which GPUs fit, how many, and the largest batch and sequence (Ctrl+3)</source>
        <translation>哪些 GPU 放得下、需要几张，以及最大批次和序列长度（Ctrl+3）</translation>
    </message>
    <message>
        <source>Full vs LoRA vs QLoRA, optimizers or precisions side by side (Ctrl+4)</source>
        <translation>并排对比全参数、LoRA、QLoRA、各优化器或各精度（Ctrl+4）</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;New scenario</source>
        <translation>新建场景(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>Save &amp;as…</source>
        <translation>另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Import config.json…</source>
        <translation>导入 config.json(&amp;I)…</translation>
    </message>
    <message>
        <source>&amp;Export PDF report…</source>
        <translation>导出 PDF 报告(&amp;E)…</translation>
    </message>
    <message>
        <source>Export &amp;measurement script…</source>
        <translation>导出测量脚本(&amp;M)…</translation>
    </message>
    <message>
        <source>Import mea&amp;surement…</source>
        <translation>导入测量结果(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Calibrations…</source>
        <translation>校准(&amp;C)…</translation>
    </message>
    <message>
        <source>&amp;Keep calibration in this scenario</source>
        <translation>在此场景中保留校准(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;About GPU Sizer</source>
        <translation>关于 GPU Sizer(&amp;A)</translation>
    </message>
    <message>
        <source>About GPU Sizer</source>
        <translation>关于 GPU Sizer</translation>
    </message>
    <message>
        <source>&lt;b&gt;GPU Sizer %1&lt;/b&gt;&lt;p&gt;Plans GPU memory, fit, time and cost for fine-tuning and training large language models. Memory in GiB (2&lt;sup&gt;30&lt;/sup&gt; bytes), per GPU unless labelled total.&lt;/p&gt;&lt;p&gt;The memory model and its measured accuracy are documented in docs/memory-model.md and docs/accuracy.md.&lt;/p&gt;</source>
        <translation>&lt;b&gt;GPU Sizer %1&lt;/b&gt;&lt;p&gt;为大语言模型的微调和训练规划 GPU 显存、适配、时间和成本。显存单位为 GiB（2&lt;sup&gt;30&lt;/sup&gt; 字节），除非标注为总计，否则均为每 GPU 的值。&lt;/p&gt;&lt;p&gt;显存模型及其实测精度详见 docs/memory-model.md 和 docs/accuracy.md。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Per GPU: %1 device (nvidia-smi), %2 allocated (torch)</source>
        <translation>每 GPU：设备显存 %1（nvidia-smi），已分配 %2（torch）</translation>
    </message>
    <message numerus="yes">
        <source> · Total across %n GPU(s): %1</source>
        <translation>
            <numerusform> · %n 个 GPU 总计：%1</numerusform>
        </translation>
    </message>
    <message>
        <source> · host RAM for offload: %1 total</source>
        <translation> · 卸载所需主机内存：总计 %1</translation>
    </message>
    <message>
        <source>%1[*] — GPU Sizer</source>
        <translation>%1[*] — GPU Sizer</translation>
    </message>
    <message>
        <source>Untitled</source>
        <translation>未命名</translation>
    </message>
    <message>
        <source>Cannot open scenario</source>
        <translation>无法打开场景</translation>
    </message>
    <message>
        <source>Cannot save scenario</source>
        <translation>无法保存场景</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <source>Cannot import config.json</source>
        <translation>无法导入 config.json</translation>
    </message>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <source>%1

%2</source>
        <translation>%1

%2</translation>
    </message>
    <message>
        <source>weights in the checkpoint: %1</source>
        <translation>检查点中的权重：%1</translation>
    </message>
    <message>
        <source>Imported %1 (%2 parameters)%3</source>
        <translation>已导入 %1（%2 参数）%3</translation>
    </message>
    <message numerus="yes">
        <source>⚠ %n catalog problem(s)</source>
        <translation>
            <numerusform>⚠ 目录中有 %n 个问题</numerusform>
        </translation>
    </message>
    <message>
        <source>The scenario has unsaved changes. Save them?</source>
        <translation>场景有未保存的更改。是否保存？</translation>
    </message>
    <message>
        <source>Open scenario</source>
        <translation>打开场景</translation>
    </message>
    <message>
        <source>Save scenario</source>
        <translation>保存场景</translation>
    </message>
    <message>
        <source>Sizing report — %1</source>
        <translation>估算报告 — %1</translation>
    </message>
    <message>
        <source>Cannot export the report</source>
        <translation>无法导出报告</translation>
    </message>
    <message numerus="yes">
        <source>Report written to %1 (%n page(s))</source>
        <translation>
            <numerusform>报告已写入 %1（共 %n 页）</numerusform>
        </translation>
    </message>
    <message>
        <source>Export sizing report</source>
        <translation>导出估算报告</translation>
    </message>
    <message>
        <source>sizing-report</source>
        <translation>sizing-report</translation>
    </message>
    <message>
        <source>PDF (*.pdf)</source>
        <translation>PDF (*.pdf)</translation>
    </message>
    <message>
        <source>Cannot write the measurement script</source>
        <translation>无法写入测量脚本</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Measurement script written to %1: run it on the GPU with python3 %2 --out result.json, then File › Import measurement.</source>
        <translation>测量脚本已写入 %1：请在 GPU 上用 python3 %2 --out result.json 运行，然后选择“文件 › 导入测量结果”。</translation>
    </message>
    <message>
        <source>Cannot import the measurement</source>
        <translation>无法导入测量结果</translation>
    </message>
    <message>
        <source>The measurement does not match this scenario</source>
        <translation>该测量结果与此场景不匹配</translation>
    </message>
    <message>
        <source>Estimated and measured on %1:</source>
        <translation>%1 上的估算值与实测值：</translation>
    </message>
    <message numerus="yes">
        <source>From %n measured run(s) on the %1 (%2):

• overhead correction %3%4 per GPU
%5
Apply this calibration to your estimates for this GPU and framework? It is kept in your settings and can be reset in Help › Calibrations.</source>
        <translation>
            <numerusform>基于 %1（%2）上的 %n 次实测运行：

• 每 GPU 开销修正 %3%4
%5
是否将此校准应用于该 GPU 和框架的估算？校准将保存在设置中，可在“帮助 › 校准”中重置。</numerusform>
        </translation>
    </message>
    <message>
        <source>Apply calibration?</source>
        <translation>应用校准？</translation>
    </message>
    <message>
        <source>Calibrations</source>
        <translation>校准</translation>
    </message>
    <message>
        <source>No calibration is applied. Import a measurement from a GPU run (File › Import measurement) to fit one.</source>
        <translation>未应用任何校准。请导入 GPU 运行的测量结果（文件 › 导入测量结果）以拟合校准。</translation>
    </message>
    <message>
        <source>Calibrations applied to your estimates:

</source>
        <translation>已应用于估算的校准：

</translation>
    </message>
    <message>
        <source>not measured</source>
        <translation>未测量</translation>
    </message>
    <message>
        <source>
Reset them all?</source>
        <translation>
是否全部重置？</translation>
    </message>
    <message>
        <source>Export measurement script</source>
        <translation>导出测量脚本</translation>
    </message>
    <message>
        <source>Python (*.py)</source>
        <translation>Python (*.py)</translation>
    </message>
    <message>
        <source>Import measurement</source>
        <translation>导入测量结果</translation>
    </message>
    <message>
        <source>Measurement (*.json)</source>
        <translation>测量结果 (*.json)</translation>
    </message>
    <message>
        <source>Estimate against measurement</source>
        <translation>估算值与实测值对比</translation>
    </message>
    <message>
        <source>Import a Hugging Face config.json</source>
        <translation>导入 Hugging Face config.json</translation>
    </message>
    <message>
        <source>config.json (*.json);;All files (*)</source>
        <translation>config.json (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>System default</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>Brea&amp;kdown</source>
        <translation>内存明细(&amp;K)</translation>
    </message>
    <message>
        <source>Memor&amp;y vs sequence</source>
        <translation>显存与序列长度(&amp;Y)</translation>
    </message>
    <message>
        <source>GPU fi&amp;t</source>
        <translation>GPU 适配(&amp;T)</translation>
    </message>
    <message>
        <source>GPU Sizer scenarios (*.json);;All files (*)</source>
        <translation>GPU Sizer 场景 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Import &amp;training config…</source>
        <translation>导入训练配置(&amp;T)…</translation>
    </message>
    <message>
        <source>Show import &amp;report</source>
        <translation>显示导入报告(&amp;R)</translation>
    </message>
    <message>
        <source>Cannot import the training config</source>
        <translation>无法导入训练配置</translation>
    </message>
    <message>
        <source>%1

%2

Choose the model&apos;s config.json?</source>
        <translation>%1

%2

要选择模型的 config.json 吗？</translation>
    </message>
    <message>
        <source>Which model?</source>
        <translation>哪个模型？</translation>
    </message>
    <message>
        <source>The model&apos;s config.json</source>
        <translation>模型的 config.json</translation>
    </message>
    <message>
        <source>Hugging Face config (*.json)</source>
        <translation>Hugging Face 配置 (*.json)</translation>
    </message>
    <message>
        <source>Imported %1</source>
        <translation>已导入 %1</translation>
    </message>
    <message>
        <source>Import training config</source>
        <translation>导入训练配置</translation>
    </message>
    <message>
        <source>Export &amp;dataset script…</source>
        <translation>导出数据集脚本(&amp;D)…</translation>
    </message>
    <message>
        <source>Import dataset &amp;lengths…</source>
        <translation>导入数据集长度(&amp;L)…</translation>
    </message>
    <message>
        <source>Cannot write the dataset script</source>
        <translation>无法写入数据集脚本</translation>
    </message>
    <message>
        <source>Dataset script written to %1: run it where your data is with python3 %2 DATA --tokenizer FOLDER, then File › Import dataset lengths.</source>
        <translation>数据集脚本已写入 %1：在数据所在之处用 python3 %2 DATA --tokenizer FOLDER 运行，然后使用“文件 › 导入数据集长度”。</translation>
    </message>
    <message>
        <source>Cannot import the dataset lengths</source>
        <translation>无法导入数据集长度</translation>
    </message>
    <message>
        <source>Export dataset script</source>
        <translation>导出数据集脚本</translation>
    </message>
    <message>
        <source>Import dataset lengths</source>
        <translation>导入数据集长度</translation>
    </message>
    <message>
        <source>Dataset lengths (*.json)</source>
        <translation>数据集长度 (*.json)</translation>
    </message>
    <message>
        <source>• HFU %1% (used by the Plan tab)
</source>
        <translation>• HFU %1%（用于“规划”选项卡）
</translation>
    </message>
    <message numerus="yes">
        <source>• %1 / %2: overhead %3, HFU %4 (%n run(s), %5)
</source>
        <translation>
            <numerusform>• %1 / %2：开销 %3，HFU %4（%n 次运行，%5）
</numerusform>
        </translation>
    </message>
    <message>
        <source>Training configs (*.yaml *.yml *.json *.sh);;All files (*)</source>
        <translation>训练配置 (*.yaml *.yml *.json *.sh);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Axolotl, LLaMA-Factory, torchtune, transformers / TRL with PEFT, accelerate, DeepSpeed, LitGPT or ArcticTraining files of one run (select several together), or a verl or OpenRLHF launch script</source>
        <translation>一次运行的 Axolotl、LLaMA-Factory、torchtune、带 PEFT 的 transformers / TRL、accelerate、DeepSpeed、LitGPT 或 ArcticTraining 文件（可同时选择多个），或 verl 或 OpenRLHF 启动脚本</translation>
    </message>
</context>
<context>
    <name>gpusizer::ui::PlanView</name>
    <message>
        <source> M tokens</source>
        <translation> 百万 token</translation>
    </message>
    <message>
        <source>Passes over the dataset.</source>
        <translation>遍历数据集的次数。</translation>
    </message>
    <message>
        <source>Balanced</source>
        <translation>均衡</translation>
    </message>
    <message>
        <source>Lowest cost</source>
        <translation>成本最低</translation>
    </message>
    <message>
        <source>Shortest time</source>
        <translation>时间最短</translation>
    </message>
    <message>
        <source>Network: typical for the card</source>
        <translation>网络：该 GPU 的典型配置</translation>
    </message>
    <message>
        <source>InfiniBand 400 Gb/s per GPU</source>
        <translation>InfiniBand 每 GPU 400 Gb/s</translation>
    </message>
    <message>
        <source>RoCE 200 Gb/s per GPU</source>
        <translation>RoCE 每 GPU 200 Gb/s</translation>
    </message>
    <message>
        <source>100 GbE per node</source>
        <translation>每节点 100 GbE</translation>
    </message>
    <message>
        <source>25 GbE per node</source>
        <translation>每节点 25 GbE</translation>
    </message>
    <message>
        <source>The network between nodes. Typical: InfiniBand 400 Gb/s per GPU for SXM/OAM servers, 100 GbE for datacenter PCIe servers, 25 GbE for consumer-card machines.</source>
        <translation>节点之间的网络。典型配置：SXM/OAM 服务器为每 GPU 400 Gb/s InfiniBand，数据中心 PCIe 服务器为 100 GbE，消费级显卡机器为 25 GbE。</translation>
    </message>
    <message>
        <source>≤ </source>
        <translation>≤ </translation>
    </message>
    <message>
        <source> GPUs</source>
        <translation> 个 GPU</translation>
    </message>
    <message>
        <source>The most cards you accept.</source>
        <translation>可接受的最大 GPU 数量。</translation>
    </message>
    <message>
        <source>margin: the band</source>
        <translation>余量：按预期范围</translation>
    </message>
    <message>
        <source>margin </source>
        <translation>余量 </translation>
    </message>
    <message>
        <source> %</source>
        <translation> %</translation>
    </message>
    <message>
        <source>Memory kept free above the estimate before a layout counts as fitting. Default: the upper side of the estimate&apos;s measured band for this kind of run.</source>
        <translation>在估算值之上需预留的空闲显存，满足后该并行布局才算放得下。默认值：此类运行估算值实测预期范围的上限。</translation>
    </message>
    <message>
        <source>host RAM: the catalog&apos;s</source>
        <translation>主机内存：使用目录值</translation>
    </message>
    <message>
        <source>host RAM </source>
        <translation>主机内存 </translation>
    </message>
    <message>
        <source> GiB/node</source>
        <translation> GiB/节点</translation>
    </message>
    <message>
        <source>Host RAM per node that offload may fill. Default: the card&apos;s typical node.</source>
        <translation>每节点可供卸载使用的主机内存。默认值：该 GPU 典型节点的配置。</translation>
    </message>
    <message>
        <source>Spot prices</source>
        <translation>竞价实例价格</translation>
    </message>
    <message>
        <source>Rank by the catalog&apos;s spot price instead of on-demand (interruptible).</source>
        <translation>按目录中的竞价实例价格（可被中断）而非按需价格排序。</translation>
    </message>
    <message>
        <source>Allow CPU offload</source>
        <translation>允许 CPU 卸载</translation>
    </message>
    <message>
        <source>Let the planner offload to the CPU: fewer cards, much slower steps; chosen only when it wins on the objective or nothing else fits.</source>
        <translation>允许规划器卸载到 CPU：所需 GPU 更少，但每步慢得多；仅当它在目标上更优或其他方案都放不下时才会选用。</translation>
    </message>
    <message>
        <source>&amp;Dataset</source>
        <translation>数据集(&amp;D)</translation>
    </message>
    <message>
        <source>Plan per GPU</source>
        <translation>各 GPU 的方案</translation>
    </message>
    <message>
        <source>The card whose scaling from 1 to 64 GPUs is drawn, over PCIe and over NVLink.</source>
        <translation>要绘制从 1 到 64 个 GPU 扩展性（PCIe 和 NVLink）的 GPU 型号。</translation>
    </message>
    <message>
        <source>Select a GPU to see its runners-up and why they lost.</source>
        <translation>选择一个 GPU，查看其备选方案及落选原因。</translation>
    </message>
    <message>
        <source>&amp;Epochs</source>
        <translation>轮数(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Objective</source>
        <translation>目标(&amp;O)</translation>
    </message>
    <message>
        <source>spot: </source>
        <translation>竞价：</translation>
    </message>
    <message>
        <source> interruptions/node-day</source>
        <translation> 次中断/节点·天</translation>
    </message>
    <message>
        <source>Expected spot interruptions per node and day (default 1: a preemptible VM runs at most 24 h). One node&apos;s preemption stops every node of the run.</source>
        <translation>每个节点每天期望的竞价中断次数（默认 1：可抢占虚拟机最多运行 24 小时）。一个节点被抢占会停下整个训练的所有节点。</translation>
    </message>
    <message>
        <source>checkpoint every </source>
        <translation>检查点间隔 </translation>
    </message>
    <message>
        <source> h</source>
        <translation> 小时</translation>
    </message>
    <message>
        <source>Hours between resumable checkpoints; at the minimum, the recommended interval (Young&apos;s optimum for the spot rate).</source>
        <translation>两次可恢复检查点之间的小时数；设为最小值时使用推荐间隔（按竞价中断率的 Young 最优值）。</translation>
    </message>
    <message>
        <source>checkpoint: recommended</source>
        <translation>检查点：推荐间隔</translation>
    </message>
    <message>
        <source>storage </source>
        <translation>存储 </translation>
    </message>
    <message>
        <source> GB/s/node</source>
        <translation> GB/s/节点</translation>
    </message>
    <message>
        <source>Checkpoint write and read bandwidth per node (default 1 GB/s: a provisioned cloud block volume).</source>
        <translation>每个节点的检查点读写带宽（默认 1 GB/s：预配的云块存储卷）。</translation>
    </message>
    <message>
        <source>kept </source>
        <translation>保留 </translation>
    </message>
    <message>
        <source> days after</source>
        <translation> 天（训练后）</translation>
    </message>
    <message>
        <source>Days the retained checkpoints stay in storage after the run, until they are copied out and deleted.</source>
        <translation>训练结束后保留的检查点在存储中停留的天数，直到复制出来并删除。</translation>
    </message>
    <message>
        <source>egress $</source>
        <translation>出站 $</translation>
    </message>
    <message>
        <source>/GB</source>
        <translation>/GB</translation>
    </message>
    <message>
        <source>Price of traffic out to the internet per GB (default $0.09: AWS&apos;s first 10 TB a month).</source>
        <translation>流出到互联网的流量每 GB 价格（默认 $0.09：AWS 每月前 10 TB）。</translation>
    </message>
    <message>
        <source>&lt;b&gt;The whole bill on %1&lt;/b&gt;</source>
        <translation>&lt;b&gt;%1 上的全部账单&lt;/b&gt;</translation>
    </message>
    <message>
        <source>E&amp;xport measurement script…</source>
        <translation>导出测量脚本(&amp;X)…</translation>
    </message>
    <message>
        <source>A Python script that runs this scenario on the test card and writes the measured memory and step time; import the result with File › Import measurement.</source>
        <translation>一个在测试显卡上运行此场景并写出实测显存与单步时间的 Python 脚本；用“文件 › 导入测量结果”导入结果。</translation>
    </message>
    <message>
        <source>unknown (assumed 100 M tokens)</source>
        <translation>未知（假设 1 亿 token）</translation>
    </message>
    <message>
        <source>Training tokens per epoch (examples × average length), in millions. Until you set it, every time and cost assumes 100 million tokens and says so.</source>
        <translation>每轮训练的 token 数（样本数 × 平均长度），单位为百万。在你设置之前，所有时间和成本都假设 1 亿 token，并会注明。</translation>
    </message>
    <message>
        <source>global batch: fixed</source>
        <translation>全局批次：固定</translation>
    </message>
    <message>
        <source>global batch </source>
        <translation>全局批次 </translation>
    </message>
    <message>
        <source>Sequences per optimizer step. Fixed: the input panel&apos;s micro-batch × accumulation × data-parallel GPUs, and every plan keeps it. Set a range to let the planner trade gradient accumulation for data parallelism, as trainers do.</source>
        <translation>每个优化步的序列数。固定：输入面板的微批次 × 累积步数 × 数据并行 GPU 数，每个方案都保持不变。设置一个范围，让规划器像训练框架那样用数据并行替代梯度累积。</translation>
    </message>
    <message>
        <source>to </source>
        <translation>至 </translation>
    </message>
    <message>
        <source> sequences</source>
        <translation> 条序列</translation>
    </message>
    <message>
        <source>The largest global batch the planner may choose (with a range set).</source>
        <translation>规划器可选择的最大全局批次（设置范围时）。</translation>
    </message>
    <message>
        <source>What the planner picks by: the lowest cost (the default; with a deadline, the lowest cost that finishes in time), the shortest wall time, or balanced (the cheapest plan within 1.5× of the fastest). Time and cost include the start-up and the final copy.</source>
        <translation>规划器的选择依据：最低成本（默认；设置截止时间时，取按时完成的最低成本）、最短墙钟时间，或均衡（在最快方案 1.5 倍时间内最便宜的方案）。时间和成本包含启动与最终复制。</translation>
    </message>
    <message>
        <source>no deadline</source>
        <translation>无截止时间</translation>
    </message>
    <message>
        <source>within </source>
        <translation>在 </translation>
    </message>
    <message>
        <source>Finish within this many hours (wall time, start-up included): the lowest cost picks the cheapest plan that does.</source>
        <translation>在这么多小时内完成（墙钟时间，含启动）：最低成本目标会选择满足它的最便宜方案。</translation>
    </message>
    <message>
        <source>%1 Fit margin %2 above the estimate. Prices are illustrative.%3</source>
        <translation>%1 在估算值之上留出 %2 的余量。价格仅供参考。%3</translation>
    </message>
    <message>
        <source>instance up </source>
        <translation>实例启动 </translation>
    </message>
    <message>
        <source> min</source>
        <translation> 分钟</translation>
    </message>
    <message>
        <source>Minutes from the request until the instances accept a login (default 10: &quot;up to 10 minutes&quot;, SF Compute&apos;s and Anyscale&apos;s figure for GPU nodes).</source>
        <translation>从申请到实例可以登录所需的分钟数（默认 10：SF Compute 和 Anyscale 给出的 GPU 节点“最多 10 分钟”）。</translation>
    </message>
    <message>
        <source>environment </source>
        <translation>环境准备 </translation>
    </message>
    <message>
        <source>Minutes to pull the image or install the packages on each node (default 6: AWS&apos;s 4-6 minutes for a 15-20 GB image); 0 with a provider&apos;s pre-installed stack.</source>
        <translation>每个节点拉取镜像或安装软件包所需的分钟数（默认 6：AWS 给出的 15–20 GB 镜像需 4–6 分钟）；使用云服务商预装的软件栈时为 0。</translation>
    </message>
    <message>
        <source>download </source>
        <translation>下载 </translation>
    </message>
    <message>
        <source>The base model&apos;s download speed per node (default 0.4 GB/s: Hugging Face&apos;s S3 benchmark); at the minimum the weights are already on the node.</source>
        <translation>每个节点下载基础模型的速度（默认 0.4 GB/s：Hugging Face 的 S3 基准测试）；设为最小值表示权重已在节点上。</translation>
    </message>
    <message>
        <source>model already on the node</source>
        <translation>模型已在节点上</translation>
    </message>
    <message>
        <source>from your data (%1 tokens)</source>
        <translation>来自你的数据（%1 个 token）</translation>
    </message>
    <message>
        <source>HFU: each card&apos;s published</source>
        <translation>HFU：各显卡已发表的数值</translation>
    </message>
    <message>
        <source> % HFU</source>
        <translation> % HFU</translation>
    </message>
    <message>
        <source>Hardware FLOPs utilisation: the share of the GPU&apos;s dense BF16 peak the run&apos;s matmuls reach, recomputation counted (the element-wise kernels and the optimizer step are timed apart, at the card&apos;s bandwidth). At 0, each card&apos;s published training figure (LLM Foundry, AMD&apos;s and Databricks&apos; benchmarks; docs/planning.md), or 25% for a card with none. A value here applies to every card; an imported measurement sets it.</source>
        <translation>硬件 FLOPs 利用率：训练中矩阵乘法达到的 GPU 稠密 BF16 峰值的比例，计入重计算（逐元素内核和优化器步骤按显卡带宽另行计时）。为 0 时使用各显卡已发表的训练数值（LLM Foundry、AMD 和 Databricks 的基准测试；docs/planning.md），没有发表数据的显卡取 25%。在此设置的值适用于所有显卡；导入的测量结果会设置它。</translation>
    </message>
</context>
<context>
    <name>gpusizer::ui::ScalingChartView</name>
    <message>
        <source>Scaling with card count</source>
        <translation>随 GPU 数量的扩展性</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数量</translation>
    </message>
    <message>
        <source>Speed-up</source>
        <translation>加速比</translation>
    </message>
    <message>
        <source>Ideal</source>
        <translation>理想</translation>
    </message>
    <message>
        <source>NVLink</source>
        <translation>NVLink</translation>
    </message>
    <message>
        <source>PCIe</source>
        <translation>PCIe</translation>
    </message>
</context>
<context>
    <name>gpusizer::ui::ScenarioController</name>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message numerus="yes">
        <source>calibrated from %n measured run(s): overhead %1%2</source>
        <translation>
            <numerusform>基于 %n 次实测运行校准：开销 %1%2</numerusform>
        </translation>
    </message>
    <message>
        <source>Model &apos;%1&apos; is not in the catalog</source>
        <translation>模型 &apos;%1&apos; 不在目录中</translation>
    </message>
    <message numerus="yes">
        <source>calibration from %n measured run(s) kept in this scenario</source>
        <translation>
            <numerusform>基于 %n 次实测运行的校准已保存在此场景中</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gpusizer::ui::SeqLenChartView</name>
    <message>
        <source>Memory per GPU against sequence length</source>
        <translation>每 GPU 显存随序列长度的变化</translation>
    </message>
    <message>
        <source>Sequence length (tokens, log₂ scale)</source>
        <translation>序列长度（token，log₂ 刻度）</translation>
    </message>
    <message>
        <source>Range</source>
        <translation>范围</translation>
    </message>
    <message>
        <source>Per GPU</source>
        <translation>每 GPU</translation>
    </message>
    <message>
        <source>Now</source>
        <translation>当前</translation>
    </message>
    <message>
        <source>GiB per GPU (device, log₂ scale)</source>
        <translation>每 GPU 设备显存（GiB，log₂ 刻度）</translation>
    </message>
</context>
<context>
    <name>gpusizer::ui::SeqLenView</name>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>does not fit</source>
        <translation>放不下</translation>
    </message>
    <message>
        <source>up to %1 tokens</source>
        <translation>最多 %1 个 token</translation>
    </message>
    <message numerus="yes">
        <source>Longest sequence per GPU at micro-batch %1 with %n GPU(s): %2.</source>
        <translation>
            <numerusform>微批次为 %1、%n 个 GPU 时，每 GPU 的最长序列：%2。</numerusform>
        </translation>
    </message>
</context>
</TS>
