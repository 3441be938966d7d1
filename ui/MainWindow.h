#pragma once

#include "gpusizer/scenario/DatasetLengths.h"

#include <QtCore/QStringList>
#include <QtWidgets/QMainWindow>
#include <optional>

QT_FORWARD_DECLARE_CLASS(QLabel)
QT_FORWARD_DECLARE_CLASS(QMenu)
QT_FORWARD_DECLARE_CLASS(QTabWidget)

namespace gpusizer::ui {

class ScenarioController;
class InputPanel;
class BreakdownView;
class SeqLenView;
class FitView;
class CompareView;
class AdvisorView;
class PlanView;

/// The explorer window: inputs on the left; breakdown, memory-vs-sequence, GPU fit and comparison tabs on the right;
/// per-GPU and total figures in the status bar; File menu for scenarios.
class MainWindow final : public QMainWindow {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MainWindow)

public:
    explicit MainWindow(ScenarioController& controller, QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Opens a scenario file; on a bad file shows what is wrong and keeps the current work. Returns success.
    bool openFile(const QString& path);
    /// Saves atomically to `path` (becomes the current file). Returns success; failures are shown.
    bool saveTo(const QString& path);
    /// Reads a Hugging Face config.json (and a model.safetensors.index.json beside it, when present).
    bool importConfig(const QString& path);
    /// Reads training configs of one run (Axolotl, LLaMA-Factory, torchtune, transformers / TRL with PEFT, accelerate,
    /// DeepSpeed, LitGPT) into a new scenario and shows the import report. A model not in the catalog is asked for as
    /// its config.json (`modelConfig` when given). Returns success; problems are shown and the current work kept.
    bool importTrainingConfigs(const QStringList& paths, const QString& modelConfig = {});
    /// Opens what the user dropped or named on the command line: a scenario file, a config.json (its architecture) or
    /// the training configs of one run.
    bool openPaths(const QStringList& paths);
    /// Shows the import report kept in the scenario's notes (nothing when it has none).
    void showImportReport();
    /// Writes the sizing report as PDF (atomic); failures are shown. Returns success.
    bool exportReport(const QString& path, const QString& pageSizeName);
    /// Writes the measurement script for the scenario (atomic). Returns success; failures are shown.
    bool exportProbeScript(const QString& path);
    /// Reads a measurement result and compares it with the estimate; returns the comparison text (empty on failure,
    /// which is shown).
    QString importMeasurement(const QString& path);
    /// Writes the dataset script for the current scenario; false (after saying why) when it cannot.
    bool exportDatasetScript(const QString& path);
    /// Keeps a dataset script's result with the scenario and sets seq_len from the basis; the summary and histogram
    /// as rich text, or empty (after saying why) when the file is refused.
    QString importDatasetLengths(const QString& path, core::LengthBasis basis);
    /// Reads a dataset script result; a file that is not one is refused in an error dialog (nullopt).
    std::optional<core::DatasetLengths> readDatasetLengths(const QString& path);
    /// Forgets every stored calibration; a correction the scenario sets itself stays.
    void resetCalibrations();
    /// Selects a tab by name: breakdown (or explorer), sequence, fit, compare, plan, advisor. Returns false for unknown
    /// names.
    bool selectTab(const QString& name);

    /// Restores the last session (scenario, geometry, tab, recent files) from the settings.
    void restoreSession();
    /// Writes the session to the settings.
    void saveSession() const;
    /// Shows catalog files or entries that were left out (status bar, with details in the tooltip).
    void showCatalogProblems(const QStringList& problems);

    InputPanel* inputPanel() const { return m_inputs; }
    BreakdownView* breakdownView() const { return m_breakdown; }
    SeqLenView* seqLenView() const { return m_seqLen; }
    FitView* fitView() const { return m_fit; }
    CompareView* compareView() const { return m_compare; }
    AdvisorView* advisorView() const { return m_advisor; }
    PlanView* planView() const { return m_plan; }
    QTabWidget* tabs() const { return m_tabs; }
    /// The view on the current tab (the page inside its scroll area).
    QWidget* currentView() const;
    QString statusText() const;
    QStringList recentFiles() const { return m_recent; }
    bool isModified() const { return isWindowModified(); }

signals:
    /// The user chose a language in View › Language ("" follows the system); the choice is already saved.
    void languageChosen(const QString& code);

protected:
    void closeEvent(QCloseEvent* event) override;
    /// The first show keeps the whole frame on the screen (fitFrameOnScreen).
    void showEvent(QShowEvent* event) override;
    /// Files dropped on the window: a scenario opens, a config.json imports the model, training configs import a run.
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    /// A window sized to the screen's available area is that tall without its title bar: at 1024 x 700 under a window
    /// manager the status bar fell off the bottom. Once the frame is known, the window shrinks so the frame fits.
    void fitFrameOnScreen();
    void buildMenus();
    void buildLanguageMenu(QMenu* view);
    QString scenarioFilter() const;
    void refreshStatus();
    void updateTitle();
    void addRecent(const QString& path);
    void rebuildRecentMenu();
    bool maybeSave();
    void newScenario();
    void openDialog();
    bool save();
    bool saveAsDialog();
    void importDialog();
    void importTrainingDialog();
    void exportDialog();
    void exportProbeDialog();
    void importMeasurementDialog();
    void exportDatasetDialog();
    void importLengthsDialog();
    void offerCalibration();
    void showCalibrations();

    ScenarioController& m_controller;
    bool m_shownOnce = false;
    QSize m_autoSize; ///< the size the constructor chose from the screen; a window resized since is left as it is
    InputPanel* m_inputs = nullptr;
    QTabWidget* m_tabs = nullptr;
    BreakdownView* m_breakdown = nullptr;
    SeqLenView* m_seqLen = nullptr;
    FitView* m_fit = nullptr;
    CompareView* m_compare = nullptr;
    AdvisorView* m_advisor = nullptr;
    PlanView* m_plan = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_catalogStatus = nullptr;
    QMenu* m_recentMenu = nullptr;
    QString m_currentFile;
    QStringList m_recent;
    bool m_loading = false;
};

} // namespace gpusizer::ui
