#include "SeqLenView.h"

#include "../Format.h"
#include "../ScenarioController.h"
#include "../charts/BreakdownChartView.h"
#include "../charts/ChartPalette.h"
#include "../charts/SeqLenChartView.h"
#include "BreakdownView.h"
#include "gpusizer/memory/Sweep.h"
#include "gpusizer/plan/FitTable.h"

#include <QtWidgets/QLabel>
#include <QtWidgets/QVBoxLayout>

namespace gpusizer::ui {

SeqLenView::SeqLenView(ScenarioController& controller, QWidget* parent) : LiveView(controller, parent) {
    setObjectName(QStringLiteral("seqLenView"));
    auto* layout = new QVBoxLayout(this);
    m_chart = new SeqLenChartView(this);
    followPalette(m_chart->chart(), palette());
    layout->addWidget(m_chart, 1);
    m_caption = new QLabel(this);
    m_caption->setWordWrap(true);
    layout->addWidget(m_caption);
}

QString SeqLenView::captionText() const {
    return m_caption->text();
}

void SeqLenView::refresh() {
    const auto& s = controller().scenario();
    const auto points = core::sweepSeqLen(s, core::powersOfTwo(128, 131072));
    const auto capacities = capacityLines(controller().catalog(), s.gpuId, 4);
    m_chart->setSweep(points, s.seqLen, controller().estimate().deviceBytes, capacities);
    // Longest sequence that fits each capacity line, at the current micro-batch and layout.
    QStringList parts;
    for (const auto& cap : capacities) {
        const std::int64_t lo = core::longestSequenceThatFits(s, cap.bytes);
        parts << tr("%1: %2").arg(cap.label, lo == 0 ? tr("does not fit") : tr("up to %1 tokens").arg(formatCount(lo)));
    }
    m_caption->setText(
        tr("Longest sequence per GPU at micro-batch %1 with %n GPU(s): %2.", nullptr, static_cast<int>(s.gpus))
            .arg(s.microBatch)
            .arg(parts.join(QStringLiteral("; "))));
}

} // namespace gpusizer::ui
