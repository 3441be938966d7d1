#include "MainWindow.h"

#include "CalibrationStore.h"
#include "DialogService.h"
#include "Format.h"
#include "ImportReportDialog.h"
#include "Language.h"
#include "LengthsDialog.h"
#include "Present.h"
#include "ScenarioController.h"
#include "ScenarioFile.h"
#include "TableModel.h"
#include "WheelGuard.h"
#include "explorer/AdvisorView.h"
#include "explorer/BreakdownView.h"
#include "explorer/CompareView.h"
#include "explorer/FitView.h"
#include "explorer/InputPanel.h"
#include "explorer/PlanView.h"
#include "explorer/SeqLenView.h"
#include "gpusizer/catalogs/Files.h"
#include "gpusizer/import/TrainingConfig.h"
#include "gpusizer/plan/Measurement.h"
#include "gpusizer/plan/ProbeScript.h"
#include "gpusizer/present/EstimateText.h"
#include "gpusizer/present/Format.h"
#include "gpusizer/present/LengthsText.h"
#include "gpusizer/present/PlanText.h"
#include "gpusizer/scenario/DatasetLengths.h"
#include "gpusizer/scenario/HfConfig.h"
#include "gpusizer/scenario/ScenarioJson.h"
#include "gpusizer/scenario/Version.h"
#include "report/PdfExporter.h"
#include "report/ReportBuilder.h"

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QLocale>
#include <QtCore/QMimeData>
#include <QtCore/QSaveFile>
#include <QtCore/QSettings>
#include <QtCore/QTimer>
#include <QtGui/QAction>
#include <QtGui/QActionGroup>
#include <QtGui/QCloseEvent>
#include <QtGui/QDragEnterEvent>
#include <QtGui/QDropEvent>
#include <QtGui/QGuiApplication>
#include <QtGui/QKeySequence>
#include <QtGui/QScreen>
#include <QtGui/QTextDocument>
#include <QtWidgets/QApplication>
#include <QtWidgets/QLabel>
#include <QtWidgets/QMenuBar>
#include <QtWidgets/QMessageBox>
#include <QtWidgets/QScrollArea>
#include <QtWidgets/QSplitter>
#include <QtWidgets/QStatusBar>
#include <QtWidgets/QTabWidget>
#include <nlohmann/json.hpp>

namespace gpusizer::ui {

namespace {
constexpr int kMaxRecent = 8;
const char* const kTabNames[] = {"breakdown", "sequence", "fit", "compare", "plan", "advisor"};
} // namespace

namespace {

/// A tab's page in a scroll area: a narrow or short window scrolls the page instead of clipping it, and no page sets
/// the whole window's minimum size.
QScrollArea* scrollable(QWidget* page) {
    auto* area = new QScrollArea();
    area->setWidget(page);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    return area;
}

} // namespace

MainWindow::MainWindow(ScenarioController& controller, QWidget* parent)
    : QMainWindow(parent), m_controller(controller) {
    setObjectName(QStringLiteral("mainWindow"));
    setAcceptDrops(true); // training configs, scenarios and config.json dropped on the window
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->setObjectName(QStringLiteral("mainSplitter"));
    m_inputs = new InputPanel(controller, splitter);
    auto* scroll = new QScrollArea(splitter);
    scroll->setWidget(m_inputs);
    scroll->setWidgetResizable(true);
    // Labels wrap, so the panel is as wide as the splitter gives it; should a control still need more, it scrolls
    // sideways rather than being cut off.
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    scroll->setObjectName(QStringLiteral("inputScroll"));
    scroll->setMinimumWidth(m_inputs->openMinimumWidth() + 24); // room for the vertical scroll bar
    scroll->setFrameShape(QFrame::NoFrame);

    m_tabs = new QTabWidget(splitter);
    m_tabs->setObjectName(QStringLiteral("viewTabs"));
    m_breakdown = new BreakdownView(controller, m_tabs);
    m_seqLen = new SeqLenView(controller, m_tabs);
    m_fit = new FitView(controller, m_tabs);
    m_compare = new CompareView(controller, m_tabs);
    m_tabs->addTab(scrollable(m_breakdown), tr("Brea&kdown"));
    m_tabs->addTab(scrollable(m_seqLen), tr("Memor&y vs sequence"));
    m_tabs->addTab(scrollable(m_fit), tr("GPU fi&t"));
    m_tabs->addTab(scrollable(m_compare), tr("&Compare"));
    m_plan = new PlanView(controller, m_tabs);
    connect(m_plan, &PlanView::probeScriptRequested, this, &MainWindow::exportProbeDialog);
    m_tabs->addTab(scrollable(m_plan), tr("&Plan"));
    m_tabs->setTabToolTip(4, tr("Cards, layout, time and cost per GPU; cost vs time; scaling over PCIe and NVLink "
                                "(Ctrl+5)"));
    m_advisor = new AdvisorView(controller, m_tabs);
    m_tabs->addTab(scrollable(m_advisor), tr("&Advisor"));
    m_tabs->setTabToolTip(5, tr("Fix an OOM in the cheapest order, choose the method, read the sizing table (Ctrl+6)"));
    m_tabs->setTabToolTip(0, tr("Memory per GPU, component by component (Ctrl+1)"));
    m_tabs->setTabToolTip(1, tr("Memory against sequence length, with GPU capacities (Ctrl+2)"));
    m_tabs->setTabToolTip(2, tr("Which GPUs fit, how many, and the largest batch and sequence (Ctrl+3)"));
    m_tabs->setTabToolTip(3, tr("Full vs LoRA vs QLoRA, optimizers or precisions side by side (Ctrl+4)"));
    splitter->addWidget(scroll);
    splitter->addWidget(m_tabs);
    splitter->setStretchFactor(1, 1);
    // The panel starts at its narrowest whole width: every pixel it does not need goes to the answers.
    splitter->setSizes({m_inputs->minimumSizeHint().width() + 24, 1000});
    setCentralWidget(splitter);

    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("statusTotals"));
    // The verdict is a sentence: room for a second line rather than a cut one, and a bar that never jumps in height.
    m_status->setWordWrap(true);
    m_status->setFixedHeight(2 * m_status->fontMetrics().lineSpacing() + 4);
    m_status->setAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    statusBar()->addWidget(m_status, 1);
    m_catalogStatus = new QLabel(this);
    statusBar()->addPermanentWidget(m_catalogStatus);

    buildMenus();
    WheelGuard::guard(this);
    connect(m_inputs, &InputPanel::importConfigRequested, this, &MainWindow::importDialog);
    connect(&m_controller, &ScenarioController::estimateChanged, this, &MainWindow::refreshStatus);
    connect(&m_controller, &ScenarioController::scenarioChanged, this, [this] {
        if (!m_loading) {
            setWindowModified(true);
        }
        updateTitle();
    });
    connect(&m_controller, &ScenarioController::changeRejected, this,
            [this](const QString& message) { statusBar()->showMessage(message, 6000); });
    // The designed size, or the screen's available area when that is smaller (a 1024 x 700 laptop screen).
    const QSize available = screen() != nullptr ? screen()->availableGeometry().size() : QSize(1360, 820);
    resize(std::min(1360, available.width()), std::min(820, available.height()));
    m_autoSize = size();
    refreshStatus();
    updateTitle();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* newAction = file->addAction(tr("&New scenario"), this, &MainWindow::newScenario);
    newAction->setShortcut(QKeySequence::New);
    QAction* open = file->addAction(tr("&Open…"), this, &MainWindow::openDialog);
    open->setShortcut(QKeySequence::Open);
    m_recentMenu = file->addMenu(tr("Open &recent"));
    file->addSeparator();
    QAction* saveAction = file->addAction(tr("&Save"), this, &MainWindow::save);
    saveAction->setShortcut(QKeySequence::Save);
    QAction* saveAs = file->addAction(tr("Save &as…"), this, &MainWindow::saveAsDialog);
    // Spelled out: the platform's SaveAs and Quit bindings are empty on some desktops (and offscreen).
    saveAs->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    file->addSeparator();
    QAction* import = file->addAction(tr("&Import config.json…"), this, &MainWindow::importDialog);
    import->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    QAction* importTraining = file->addAction(tr("Import &training config…"), this, &MainWindow::importTrainingDialog);
    importTraining->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_I));
    importTraining->setToolTip(
        tr("Axolotl, LLaMA-Factory, torchtune, transformers / TRL with PEFT, accelerate, "
           "DeepSpeed, LitGPT or ArcticTraining files of one run (select several together), or a verl "
           "or OpenRLHF launch script"));
    QAction* showReport = file->addAction(tr("Show import &report"), this, &MainWindow::showImportReport);
    showReport->setObjectName(QStringLiteral("showImportReport"));
    showReport->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_R));
    showReport->setEnabled(!m_controller.scenario().notes.empty());
    connect(&m_controller, &ScenarioController::scenarioChanged, showReport,
            [this, showReport] { showReport->setEnabled(!m_controller.scenario().notes.empty()); });
    QAction* exportPdf = file->addAction(tr("&Export PDF report…"), this, &MainWindow::exportDialog);
    exportPdf->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    file->addSeparator();
    file->addAction(tr("Export &measurement script…"), this, &MainWindow::exportProbeDialog)
        ->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    file->addAction(tr("Import mea&surement…"), this, &MainWindow::importMeasurementDialog)
        ->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I));
    file->addAction(tr("Export &dataset script…"), this, &MainWindow::exportDatasetDialog)
        ->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
    file->addAction(tr("Import dataset &lengths…"), this, &MainWindow::importLengthsDialog)
        ->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L));
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));

    QMenu* view = menuBar()->addMenu(tr("&View"));
    for (int i = 0; i < m_tabs->count(); ++i) {
        QAction* a = view->addAction(m_tabs->tabText(i).remove(QLatin1Char('&')), this,
                                     [this, i] { m_tabs->setCurrentIndex(i); });
        a->setShortcut(QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_1 + i)));
    }
    buildLanguageMenu(view);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Calibrations…"), this, &MainWindow::showCalibrations);
    // A calibration applies from the settings; saving it with the scenario is the user's choice.
    QAction* keep = help->addAction(tr("&Keep calibration in this scenario"), this,
                                    [this] { m_controller.keepCalibrationInScenario(); });
    keep->setObjectName(QStringLiteral("keepCalibration"));
    keep->setEnabled(m_controller.appliedCalibration().has_value());
    connect(&m_controller, &ScenarioController::scenarioChanged, keep,
            [this, keep] { keep->setEnabled(m_controller.appliedCalibration().has_value()); });
    help->addAction(tr("&About GPU Sizer"), this, [this] {
        QMessageBox::about(
            this, tr("About GPU Sizer"),
            tr("<b>GPU Sizer %1</b><p>Plans GPU memory, fit, time and cost for fine-tuning and training large "
               "language models. Memory in GiB (2<sup>30</sup> bytes), per GPU unless labelled total.</p>"
               "<p>The memory model and its measured accuracy are documented in docs/memory-model.md and "
               "docs/accuracy.md.</p>")
                .arg(QString::fromLatin1(core::versionString().data(),
                                         static_cast<qsizetype>(core::versionString().size()))));
    });
    rebuildRecentMenu();
}

void MainWindow::buildLanguageMenu(QMenu* view) {
    view->addSeparator();
    QMenu* menu = view->addMenu(tr("&Language"));
    auto* group = new QActionGroup(menu);
    const QString chosen = chosenLanguage();
    auto add = [&](const QString& code, const QString& name) {
        QAction* a = menu->addAction(name);
        a->setCheckable(true);
        a->setChecked(chosen == code);
        a->setObjectName(QStringLiteral("language:") + (code.isEmpty() ? QStringLiteral("system") : code));
        group->addAction(a);
        connect(a, &QAction::triggered, this, [this, code] {
            setChosenLanguage(code);
            emit languageChosen(code);
        });
    };
    add(QString(), tr("System default"));
    for (const auto& language : shippedLanguages()) {
        add(language.code, language.nativeName);
    }
}

QString MainWindow::scenarioFilter() const {
    return tr("GPU Sizer scenarios (*.json);;All files (*)");
}

QWidget* MainWindow::currentView() const {
    const auto* area = qobject_cast<const QScrollArea*>(m_tabs->currentWidget());
    return area != nullptr ? area->widget() : m_tabs->currentWidget();
}

QString MainWindow::statusText() const {
    return m_status->text();
}

void MainWindow::refreshStatus() {
    const auto& s = m_controller.scenario();
    const auto& e = m_controller.estimate();
    QString text = tr("Per GPU: %1 device (nvidia-smi), %2 allocated (torch)")
                       .arg(formatGiB(e.deviceBytes), formatGiB(e.allocatedPeakBytes));
    text += tr(" · Total across %n GPU(s): %1", nullptr, static_cast<int>(s.gpus))
                .arg(QString::fromStdString(present::gibTotal(e.deviceBytes, s.gpus)));
    // The planner's verdict (margin, host RAM, precision), as in the fit table, the advisor and the report.
    if (const auto verdict = m_controller.verdictOnSelectedGpu()) {
        text += QStringLiteral(" · ") + ui::text(present::fitSentence(*verdict, *m_controller.selectedGpu()));
    }
    if (e.cpuOffloadBytesTotal > 0) {
        text += tr(" · host RAM for offload: %1 total").arg(formatGiB(e.cpuOffloadBytesTotal));
    }
    if (!m_controller.calibrationNote().isEmpty()) {
        text += QStringLiteral(" · ") + m_controller.calibrationNote();
    }
    m_status->setText(text);
}

void MainWindow::updateTitle() {
    const QString name = m_currentFile.isEmpty() ? QString::fromStdString(m_controller.scenario().name)
                                                 : QFileInfo(m_currentFile).fileName();
    setWindowTitle(tr("%1[*] — GPU Sizer").arg(name.isEmpty() ? tr("Untitled") : name));
}

bool MainWindow::openFile(const QString& path) {
    const LoadedScenario loaded = loadScenarioFile(path, m_controller.catalog());
    if (!loaded.scenario) {
        DialogService::error(this, tr("Cannot open scenario"), loaded.error);
        return false;
    }
    m_loading = true;
    m_controller.setScenario(*loaded.scenario);
    m_loading = false;
    m_currentFile = path;
    setWindowModified(false);
    addRecent(path);
    updateTitle();
    if (!loaded.warnings.isEmpty()) {
        statusBar()->showMessage(loaded.warnings.join(QStringLiteral(" · ")), 8000);
    }
    return true;
}

bool MainWindow::saveTo(const QString& path) {
    core::Scenario s = m_controller.ownScenario();
    if (s.name.empty()) {
        s.name = QFileInfo(path).completeBaseName().toStdString();
    }
    const QString error = saveScenarioFile(path, s);
    if (!error.isEmpty()) {
        DialogService::error(this, tr("Cannot save scenario"), error);
        return false;
    }
    m_currentFile = path;
    setWindowModified(false);
    addRecent(path);
    updateTitle();
    statusBar()->showMessage(tr("Saved %1").arg(path), 4000);
    return true;
}

bool MainWindow::importConfig(const QString& path) {
    // The CLI's reader: a regular file (a FIFO would hang the window), at most 16 MiB.
    const auto config = catalogs::readDocument(path.toStdString());
    if (!config) {
        DialogService::error(this, tr("Cannot import config.json"),
                             tr("Cannot open %1: %2").arg(path, ui::text(config.error().words)));
        return false;
    }
    const QString indexPath = QFileInfo(path).dir().filePath(QStringLiteral("model.safetensors.index.json"));
    std::optional<std::string> index;
    if (QFileInfo::exists(indexPath)) {
        auto read = catalogs::readDocument(indexPath.toStdString());
        if (!read) {
            DialogService::error(this, tr("Cannot import config.json"),
                                 tr("Cannot open %1: %2").arg(indexPath, ui::text(read.error().words)));
            return false;
        }
        index = std::move(*read);
    }
    const QString name = QFileInfo(path).fileName();
    auto imported = core::importHfConfig(*config, name.toStdString(),
                                         index ? std::optional<std::string_view>(*index) : std::nullopt);
    if (!imported) {
        DialogService::error(
            this, tr("Cannot import config.json"),
            tr("%1\n\n%2").arg(QString::fromStdString(imported.error().where), ui::text(imported.error().words)));
        return false;
    }
    const bool ok = m_controller.update([&](core::Scenario& s) {
        s.modelId.clear();
        s.model = imported->arch;
        if (s.model.name.empty() || s.model.name == "unknown") {
            s.model.name = QFileInfo(path).dir().dirName().toStdString();
        }
    });
    QStringList notes;
    for (const auto& w : imported->warnings) {
        notes << ui::text(w.words);
    }
    if (imported->weightBytes) {
        notes << tr("weights in the checkpoint: %1").arg(formatGiB(*imported->weightBytes));
    }
    statusBar()->showMessage(
        tr("Imported %1 (%2 parameters)%3")
            .arg(name, formatParams(core::countParams(imported->arch).total),
                 notes.isEmpty() ? QString() : QStringLiteral(" · ") + notes.join(QStringLiteral(" · "))),
        10000);
    return ok;
}

bool MainWindow::selectTab(const QString& name) {
    const QString key = name.toLower() == QStringLiteral("explorer") ? QStringLiteral("breakdown") : name.toLower();
    for (int i = 0; i < m_tabs->count(); ++i) {
        if (key == QLatin1String(kTabNames[i])) {
            m_tabs->setCurrentIndex(i);
            return true;
        }
    }
    return false;
}

void MainWindow::restoreSession() {
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    m_recent = settings.value(QStringLiteral("session/recent")).toStringList();
    rebuildRecentMenu();
    const QByteArray last = settings.value(QStringLiteral("session/scenario")).toByteArray();
    if (!last.isEmpty()) {
        auto parsed = core::parseScenario(std::string_view(last.constData(), static_cast<std::size_t>(last.size())),
                                          "last session", m_controller.catalog());
        if (parsed) {
            m_loading = true;
            m_controller.setScenario(parsed->scenario);
            m_loading = false;
            m_currentFile = settings.value(QStringLiteral("session/file")).toString();
            setWindowModified(settings.value(QStringLiteral("session/modified")).toBool());
        }
    }
    m_tabs->setCurrentIndex(settings.value(QStringLiteral("window/tab"), 0).toInt());
    updateTitle();
}

void MainWindow::saveSession() const {
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QStringLiteral("window/tab"), m_tabs->currentIndex());
    settings.setValue(QStringLiteral("session/recent"), m_recent);
    settings.setValue(QStringLiteral("session/scenario"),
                      QByteArray::fromStdString(core::scenarioToJson(m_controller.ownScenario())));
    settings.setValue(QStringLiteral("session/file"), m_currentFile);
    settings.setValue(QStringLiteral("session/modified"), isWindowModified());
}

void MainWindow::showCatalogProblems(const QStringList& problems) {
    if (problems.isEmpty()) {
        m_catalogStatus->clear();
        return;
    }
    m_catalogStatus->setText(tr("⚠ %n catalog problem(s)", nullptr, static_cast<int>(problems.size())));
    m_catalogStatus->setToolTip(problems.join(QLatin1Char('\n')));
}

void MainWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    if (!std::exchange(m_shownOnce, true)) {
        // The window manager reports the frame after mapping: look once it had a moment, and once more later.
        for (const int ms : {0, 300}) {
            QTimer::singleShot(ms, this, &MainWindow::fitFrameOnScreen);
        }
    }
}

void MainWindow::fitFrameOnScreen() {
    if (screen() == nullptr || isMaximized() || isFullScreen() || size() != m_autoSize) {
        return;
    }
    const QRect available = screen()->availableGeometry();
    const QRect frame = frameGeometry();
    const QSize border(frame.width() - width(), frame.height() - height());
    const QSize fitting(std::min(width(), available.width() - border.width()),
                        std::min(height(), available.height() - border.height()));
    if (fitting != size()) {
        resize(fitting);
        m_autoSize = fitting; // still ours: the second look may correct it again
    }
    const QRect placed = frameGeometry();
    if (!available.contains(placed)) {
        const int lastX = available.x() + available.width() - placed.width();
        const int lastY = available.y() + available.height() - placed.height();
        move(std::clamp(placed.left(), available.left(), std::max(available.left(), lastX)),
             std::clamp(placed.top(), available.top(), std::max(available.top(), lastY)));
    }
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    saveSession();
    event->accept();
}

void MainWindow::addRecent(const QString& path) {
    const QString absolute = QFileInfo(path).absoluteFilePath();
    m_recent.removeAll(absolute);
    m_recent.prepend(absolute);
    while (m_recent.size() > kMaxRecent) {
        m_recent.removeLast();
    }
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
    m_recentMenu->clear();
    for (const QString& path : m_recent) {
        m_recentMenu
            ->addAction(QFileInfo(path).fileName(), this,
                        [this, path] {
                            if (maybeSave()) {
                                openFile(path);
                            }
                        })
            ->setToolTip(path);
    }
    m_recentMenu->setEnabled(!m_recent.isEmpty());
}

bool MainWindow::maybeSave() {
    if (!isWindowModified()) {
        return true;
    }
    const int answer = DialogService::askSaveChanges(this, tr("The scenario has unsaved changes. Save them?"));
    if (answer < 0) {
        return false;
    }
    return answer == 0 || save();
}

void MainWindow::newScenario() {
    if (!maybeSave()) {
        return;
    }
    m_loading = true;
    m_controller.setScenario(core::defaultScenario(m_controller.catalog()));
    m_loading = false;
    m_currentFile.clear();
    setWindowModified(false);
    updateTitle();
}

void MainWindow::openDialog() {
    if (!maybeSave()) {
        return;
    }
    const QString path = DialogService::openFile(this, tr("Open scenario"), scenarioFilter());
    if (!path.isEmpty()) {
        openFile(path);
    }
}

bool MainWindow::save() {
    return m_currentFile.isEmpty() ? saveAsDialog() : saveTo(m_currentFile);
}

bool MainWindow::saveAsDialog() {
    const QString suggested = m_currentFile.isEmpty()
                                  ? QString::fromStdString(m_controller.scenario().name) + QStringLiteral(".json")
                                  : m_currentFile;
    const QString path = DialogService::saveFile(this, tr("Save scenario"), suggested, scenarioFilter());
    return !path.isEmpty() && saveTo(path);
}

bool MainWindow::exportReport(const QString& path, const QString& pageSizeName) {
    // Building and writing take about 0.15 s (docs/performance.md): a wait cursor, not a progress dialog. A modal
    // dialog would run the event loop between sections, laying out the report's off-screen chart views mid-build.
    QGuiApplication::setOverrideCursor(Qt::WaitCursor);
    ReportBuilder builder(m_controller.catalog());
    const core::Scenario& s = m_controller.scenario();
    const QString title = s.name.empty() ? QFileInfo(path).completeBaseName() : QString::fromStdString(s.name);
    auto document =
        builder.build({s, title, QDateTime::currentDateTime(), m_advisor->methodAnswers(), m_controller.planInputs()});
    const QString error =
        exportPdf(*document, path, pageSizeFromName(pageSizeName), tr("Sizing report — %1").arg(title));
    QGuiApplication::restoreOverrideCursor();
    if (!error.isEmpty()) {
        DialogService::error(this, tr("Cannot export the report"), error);
        return false;
    }
    statusBar()->showMessage(tr("Report written to %1 (%n page(s))", nullptr, document->pageCount()).arg(path), 6000);
    return true;
}

void MainWindow::exportDialog() {
    const QString base = m_currentFile.isEmpty() ? QString::fromStdString(m_controller.scenario().name)
                                                 : QFileInfo(m_currentFile).completeBaseName();
    const QString path = DialogService::saveFile(this, tr("Export sizing report"),
                                                 (base.isEmpty() ? tr("sizing-report") : base) + QStringLiteral(".pdf"),
                                                 tr("PDF (*.pdf)"));
    if (path.isEmpty()) {
        return;
    }
    // US and Canadian users get Letter, everyone else A4.
    const bool letter = QLocale().measurementSystem() == QLocale::ImperialUSSystem;
    exportReport(path, letter ? QStringLiteral("Letter") : QStringLiteral("A4"));
}

bool MainWindow::exportProbeScript(const QString& path) {
    // The CLI's writer: through links, never onto a device or a pipe, whole or not at all.
    if (const auto written = catalogs::writeDocument(path.toStdString(), core::probeScript(m_controller.scenario()));
        !written) {
        DialogService::error(this, tr("Cannot write the measurement script"),
                             tr("Cannot write %1: %2").arg(path, ui::text(written.error().words)));
        return false;
    }
    statusBar()->showMessage(tr("Measurement script written to %1: run it on the GPU with python3 %2 --out "
                                "result.json, then File › Import measurement.")
                                 .arg(path, QFileInfo(path).fileName()),
                             10000);
    return true;
}

bool MainWindow::exportDatasetScript(const QString& path) {
    if (const auto written = catalogs::writeDocument(path.toStdString(), core::datasetScript(m_controller.scenario()));
        !written) {
        DialogService::error(this, tr("Cannot write the dataset script"),
                             tr("Cannot write %1: %2").arg(path, ui::text(written.error().words)));
        return false;
    }
    statusBar()->showMessage(tr("Dataset script written to %1: run it where your data is with python3 %2 DATA "
                                "--tokenizer FOLDER, then File › Import dataset lengths.")
                                 .arg(path, QFileInfo(path).fileName()),
                             10000);
    return true;
}

std::optional<core::DatasetLengths> MainWindow::readDatasetLengths(const QString& path) {
    const auto bytes = catalogs::readDocument(path.toStdString());
    if (!bytes) {
        DialogService::error(this, tr("Cannot import the dataset lengths"),
                             tr("Cannot open %1: %2").arg(path, ui::text(bytes.error().words)));
        return std::nullopt;
    }
    auto lengths = core::parseDatasetLengths(*bytes, QFileInfo(path).fileName().toStdString());
    if (!lengths) {
        DialogService::error(
            this, tr("Cannot import the dataset lengths"),
            tr("%1\n\n%2").arg(QString::fromStdString(lengths.error().where), ui::text(lengths.error().words)));
        return std::nullopt;
    }
    return std::move(*lengths);
}

QString MainWindow::importDatasetLengths(const QString& path, core::LengthBasis basis) {
    auto lengths = readDatasetLengths(path);
    if (!lengths) {
        return {};
    }
    m_controller.update([&](core::Scenario& s) { core::applyDatasetLengths(s, std::move(*lengths), basis); });
    const core::DatasetLengths& kept = *m_controller.scenario().dataset;
    statusBar()->showMessage(ui::text(present::lengthsChoice(kept, basis)), 10000);
    return ui::text(present::lengthsChoice(kept, basis)) + QLatin1Char('\n') +
           ui::text(present::lengthsBatching(kept, basis));
}

void MainWindow::exportDatasetDialog() {
    const QString path =
        DialogService::saveFile(this, tr("Export dataset script"), QStringLiteral("lengths.py"), tr("Python (*.py)"));
    if (!path.isEmpty()) {
        exportDatasetScript(path);
    }
}

void MainWindow::importLengthsDialog() {
    const QString path = DialogService::openFile(this, tr("Import dataset lengths"), tr("Dataset lengths (*.json)"));
    if (path.isEmpty()) {
        return;
    }
    const auto lengths = readDatasetLengths(path);
    if (!lengths) {
        return;
    }
    LengthsDialog dialog(*lengths, this);
    if (dialog.exec() == QDialog::Accepted) {
        importDatasetLengths(path, dialog.basis());
    }
}

QString MainWindow::importMeasurement(const QString& path) {
    const auto bytes = catalogs::readDocument(path.toStdString());
    if (!bytes) {
        DialogService::error(this, tr("Cannot import the measurement"),
                             tr("Cannot open %1: %2").arg(path, ui::text(bytes.error().words)));
        return {};
    }
    const auto measurement =
        core::parseMeasurement(*bytes, QFileInfo(path).fileName().toStdString(), m_controller.catalog());
    if (!measurement) {
        DialogService::error(
            this, tr("Cannot import the measurement"),
            tr("%1\n\n%2").arg(QString::fromStdString(measurement.error().where), ui::text(measurement.error().words)));
        return {};
    }
    const auto comparison = core::compareMeasured(m_controller.scenario(), *measurement, m_controller.catalog());
    if (!comparison) {
        DialogService::error(this, tr("The measurement does not match this scenario"),
                             ui::text(comparison.error().words));
        return {};
    }
    // Keep the result with the scenario (it is saved with it and shown in the breakdown and the report).
    m_controller.update([&](core::Scenario& s) {
        s.measurements.push_back(nlohmann::json::parse(*bytes).dump()); // parsed once already: cannot throw
    });
    offerCalibration();
    QString text =
        tr("Estimated and measured on %1:").arg(ui::text(present::runLabel(*measurement))) +
        toHtml(present::measuredTable({{present::runLabel(*measurement), *comparison}})
                   .select({present::MeasFigure, present::MeasEstimated, present::MeasMeasured, present::MeasError}));
    for (const auto& n : comparison->notes) {
        text += QStringLiteral("<br>• ") + ui::text(n.words).toHtmlEscaped();
    }
    return text;
}

void MainWindow::offerCalibration() {
    const auto fit = core::fitCalibration(core::storedMeasurements(m_controller.scenario(), m_controller.catalog()),
                                          m_controller.catalog());
    if (!fit) {
        return; // CPU runs only: nothing to calibrate, and never silently
    }
    const auto* gpu = m_controller.catalog().findGpu(fit->gpuId);
    const QString question =
        tr("From %n measured run(s) on the %1 (%2):\n\n• overhead correction %3%4 per GPU\n%5\nApply this "
           "calibration to your estimates for this GPU and framework? It is kept in your settings and can be reset "
           "in Help › Calibrations.",
           nullptr, fit->runs)
            .arg(gpu != nullptr ? QString::fromStdString(gpu->name) : QString::fromStdString(fit->gpuId),
                 QString::fromLatin1(core::toString(fit->framework)),
                 fit->overheadCorrectionBytes >= 0 ? QStringLiteral("+") : QString(),
                 formatGiB(fit->overheadCorrectionBytes),
                 fit->mfu ? tr("• HFU %1% (used by the Plan tab)\n").arg(*fit->mfu * 100.0, 0, 'f', 1) : QString());
    if (!DialogService::ask(this, tr("Apply calibration?"), question)) {
        return;
    }
    StoredCalibration stored;
    stored.gpuId = QString::fromStdString(fit->gpuId);
    stored.framework = QString::fromLatin1(core::toString(fit->framework));
    stored.overheadCorrectionBytes = fit->overheadCorrectionBytes;
    stored.mfu = fit->mfu.value_or(0.0);
    stored.runs = fit->runs;
    stored.fittedAt = QDateTime::currentDateTime();
    CalibrationStore::save(stored);
    m_controller.reloadCalibrations();
    // Applied from the settings to runs on this GPU and framework; the scenario's own settings stay as they were.
    m_controller.update([&](core::Scenario& s) { s.gpuId = fit->gpuId; });
    if (fit->mfu) {
        m_plan->setMfu(*fit->mfu);
    }
}

void MainWindow::showCalibrations() {
    const auto all = CalibrationStore::all();
    if (all.isEmpty()) {
        QMessageBox::information(this, tr("Calibrations"),
                                 tr("No calibration is applied. Import a measurement from a GPU run (File › Import "
                                    "measurement) to fit one."));
        return;
    }
    QString text = tr("Calibrations applied to your estimates:\n\n");
    for (const auto& c : all) {
        text += tr("• %1 / %2: overhead %3, HFU %4 (%n run(s), %5)\n", nullptr, c.runs)
                    .arg(c.gpuId, c.framework, formatGiB(c.overheadCorrectionBytes),
                         c.mfu > 0 ? QStringLiteral("%1%").arg(c.mfu * 100.0, 0, 'f', 1) : tr("not measured"),
                         c.fittedAt.toString(Qt::ISODate));
    }
    text += tr("\nReset them all?");
    if (DialogService::ask(this, tr("Calibrations"), text)) {
        resetCalibrations();
    }
}

void MainWindow::resetCalibrations() {
    CalibrationStore::clear();
    // A correction the scenario sets itself is the user's and stays; the file itself is unchanged (not "modified").
    m_loading = true;
    m_controller.reloadCalibrations();
    m_loading = false;
}

void MainWindow::exportProbeDialog() {
    const QString path =
        DialogService::saveFile(this, tr("Export measurement script"), QStringLiteral("probe.py"), tr("Python (*.py)"));
    if (!path.isEmpty()) {
        exportProbeScript(path);
    }
}

void MainWindow::importMeasurementDialog() {
    const QString path = DialogService::openFile(this, tr("Import measurement"), tr("Measurement (*.json)"));
    if (path.isEmpty()) {
        return;
    }
    const QString text = importMeasurement(path);
    if (!text.isEmpty()) {
        QMessageBox box(QMessageBox::Information, tr("Estimate against measurement"), text, QMessageBox::Ok, this);
        box.setTextFormat(Qt::RichText);
        box.exec();
    }
}

bool MainWindow::importTrainingConfigs(const QStringList& paths, const QString& modelConfig) {
    const QString title = tr("Cannot import the training config");
    std::vector<std::string> files;
    for (const QString& path : paths) {
        files.push_back(path.toStdString());
    }
    const auto request = catalogs::trainingConfigRequest(files, modelConfig.toStdString());
    if (!request) {
        DialogService::error(this, title,
                             tr("Cannot open %1: %2")
                                 .arg(QString::fromStdString(request.error().where), ui::text(request.error().words)));
        return false;
    }
    auto run = core::importTrainingConfigs(*request, m_controller.catalog());
    if (!run && run.error().code == core::kModelConfigNeeded && modelConfig.isEmpty()) {
        // The model is not in the catalog: its config.json gives the architecture.
        const QString message = tr("%1\n\n%2\n\nChoose the model's config.json?")
                                    .arg(QString::fromStdString(run.error().where), ui::text(run.error().words));
        if (DialogService::ask(this, tr("Which model?"), message)) {
            const QString config =
                DialogService::openFile(this, tr("The model's config.json"), tr("Hugging Face config (*.json)"));
            if (!config.isEmpty()) {
                return importTrainingConfigs(paths, config);
            }
        }
        return false;
    }
    if (!run) {
        DialogService::error(
            this, title, tr("%1\n\n%2").arg(QString::fromStdString(run.error().where), ui::text(run.error().words)));
        return false;
    }
    if (!maybeSave()) {
        return false;
    }
    m_loading = true;
    m_controller.setScenario(run->scenario);
    m_loading = false;
    m_currentFile.clear();
    setWindowModified(true); // a new scenario, not yet saved
    updateTitle();
    statusBar()->showMessage(tr("Imported %1").arg(QString::fromStdString(run->scenario.name)), 8000);
    auto* dialog = new ImportReportDialog(*run, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    return true;
}

void MainWindow::showImportReport() {
    const std::string& notes = m_controller.scenario().notes;
    if (notes.empty()) {
        return;
    }
    auto* dialog = new ImportReportDialog(QString::fromStdString(notes), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
}

void MainWindow::importTrainingDialog() {
    const QStringList paths = DialogService::openFiles(
        this, tr("Import training config"), tr("Training configs (*.yaml *.yml *.json *.sh);;All files (*)"));
    if (!paths.isEmpty()) {
        importTrainingConfigs(paths);
    }
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    const auto urls = event->mimeData()->urls();
    const bool files =
        !urls.isEmpty() && std::all_of(urls.begin(), urls.end(), [](const QUrl& u) { return u.isLocalFile(); });
    if (files) {
        event->acceptProposedAction();
    }
}

void MainWindow::dropEvent(QDropEvent* event) {
    QStringList paths;
    for (const QUrl& url : event->mimeData()->urls()) {
        paths << url.toLocalFile();
    }
    if (!paths.isEmpty()) {
        event->acceptProposedAction();
        openPaths(paths);
    }
}

bool MainWindow::openPaths(const QStringList& paths) {
    if (paths.size() == 1) {
        const auto bytes = catalogs::readDocument(paths.front().toStdString());
        const auto format = bytes ? core::detectConfigFormat(*bytes) : std::nullopt;
        if (bytes && !format) {
            return maybeSave() && openFile(paths.front()); // not a training config: a scenario file
        }
        if (format == core::ConfigFormat::ModelConfig) {
            return importConfig(paths.front());
        }
    }
    return importTrainingConfigs(paths);
}

void MainWindow::importDialog() {
    const QString path = DialogService::openFile(this, tr("Import a Hugging Face config.json"),
                                                 tr("config.json (*.json);;All files (*)"));
    if (!path.isEmpty()) {
        importConfig(path);
    }
}

} // namespace gpusizer::ui
