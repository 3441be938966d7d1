#include "MainWindow.h"

#include "Format.h"
#include "ScenarioController.h"
#include "charts/BreakdownChartView.h"

#include <QtWidgets/QFormLayout>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QSlider>
#include <QtWidgets/QStatusBar>
#include <QtWidgets/QWidget>
#include <cmath>

namespace gpusizer::ui {

namespace {
// The sequence-length slider moves in powers of two: 2^7 = 128 ... 2^17 = 131,072 tokens.
constexpr int kSeqLog2Min = 7;
constexpr int kSeqLog2Max = 17;
} // namespace

MainWindow::MainWindow(ScenarioController& controller, QWidget* parent)
    : QMainWindow(parent), m_controller(controller) {
    setWindowTitle(tr("GPU Sizer"));
    auto* central = new QWidget(this);
    auto* layout = new QHBoxLayout(central);

    auto* inputs = new QWidget(central);
    auto* form = new QFormLayout(inputs);
    m_seqLenSlider = new QSlider(Qt::Horizontal, inputs);
    m_seqLenSlider->setRange(kSeqLog2Min, kSeqLog2Max);
    m_seqLenSlider->setPageStep(1);
    m_seqLenSlider->setToolTip(tr("Tokens per sequence: activations and logits grow with it."));
    m_seqLenSlider->setAccessibleName(tr("Sequence length"));
    m_seqLenValue = new QLabel(inputs);
    form->addRow(tr("&Sequence length"), m_seqLenSlider);
    form->addRow(QString(), m_seqLenValue);
    inputs->setMinimumWidth(280);
    layout->addWidget(inputs);

    m_breakdown = new BreakdownChartView(central);
    layout->addWidget(m_breakdown, 1);
    setCentralWidget(central);

    m_status = new QLabel(this);
    statusBar()->addWidget(m_status, 1);

    connect(m_seqLenSlider, &QSlider::valueChanged, this,
            [this](int log2) { m_controller.setSeqLen(std::int64_t{1} << log2); });
    connect(&m_controller, &ScenarioController::estimateChanged, this, &MainWindow::refresh);
    resize(1100, 680);
    refresh();
}

MainWindow::~MainWindow() = default;

QString MainWindow::statusText() const {
    return m_status->text();
}

void MainWindow::refresh() {
    const auto& s = m_controller.scenario();
    const auto& e = m_controller.estimate();
    const int log2 = static_cast<int>(std::lround(std::log2(static_cast<double>(s.seqLen))));
    if (m_seqLenSlider->value() != log2) {
        const QSignalBlocker block(m_seqLenSlider);
        m_seqLenSlider->setValue(log2);
    }
    m_seqLenValue->setText(tr("%1 tokens").arg(formatCount(s.seqLen)));
    m_breakdown->setBars({{tr("Per GPU"), e.perGpu, e.bandLowBytes, e.bandHighBytes}}, {});
    m_status->setText(tr("Per GPU: %1 (device, as nvidia-smi shows) · Total across %2 GPU(s): %3")
                          .arg(formatGiB(e.deviceBytes))
                          .arg(s.gpus)
                          .arg(formatGiB(e.deviceBytes * s.gpus)));
}

} // namespace gpusizer::ui
