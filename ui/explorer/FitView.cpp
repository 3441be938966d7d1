#include "FitView.h"

#include "../FrozenColumnTableView.h"
#include "../ScenarioController.h"
#include "FitTableModel.h"

#include <QtCore/QSortFilterProxyModel>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QDoubleSpinBox>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QTableView>
#include <QtWidgets/QVBoxLayout>
#include <set>

namespace gpusizer::ui {

namespace {

/// Filters by vendor and usable memory; sorts by the numeric SortRole.
class FitFilter final : public QSortFilterProxyModel {
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;
    QString vendor;
    double minUsableGiB = 0;
    void apply() { invalidateFilter(); }

protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override {
        const auto* fit = static_cast<const FitTableModel*>(sourceModel());
        const auto& r = fit->row(row);
        (void)parent;
        return (vendor.isEmpty() || QString::fromStdString(r.gpu->vendor) == vendor) &&
               r.gpu->memoryGiBUsable >= minUsableGiB;
    }
};

} // namespace

FitView::FitView(ScenarioController& controller, QWidget* parent) : LiveView(controller, parent) {
    setObjectName(QStringLiteral("fitView"));
    auto* layout = new QVBoxLayout(this);
    auto* filters = new QHBoxLayout();
    m_vendor = new QComboBox(this);
    m_vendor->addItem(tr("All vendors"), QString());
    std::set<std::string> vendors;
    for (const auto& g : controller.catalog().gpus) {
        vendors.insert(g.vendor);
    }
    for (const auto& v : vendors) {
        m_vendor->addItem(QString::fromStdString(v), QString::fromStdString(v));
    }
    m_vendor->setToolTip(tr("Show only this vendor's cards."));
    m_minMemory = new QDoubleSpinBox(this);
    m_minMemory->setRange(0, 1024);
    m_minMemory->setSuffix(tr(" GiB"));
    m_minMemory->setDecimals(0);
    m_minMemory->setToolTip(tr("Hide cards with less usable memory than this."));
    auto* vendorLabel = new QLabel(tr("Ven&dor"), this);
    vendorLabel->setBuddy(m_vendor);
    auto* memoryLabel = new QLabel(tr("Minimum m&emory"), this);
    memoryLabel->setBuddy(m_minMemory);
    filters->addWidget(vendorLabel);
    filters->addWidget(m_vendor);
    filters->addSpacing(16);
    filters->addWidget(memoryLabel);
    filters->addWidget(m_minMemory);
    filters->addStretch(1);
    auto* legend = new QLabel(tr("Your layout: green fits with the margin · amber tight (only the estimate fits) or "
                                 "fits with the planner's layout · red nothing fits. Best on this card: what the "
                                 "planner would rent (objective and limits on the Plan tab). Memory per GPU, GiB."),
                              this);
    legend->setWordWrap(true);
    layout->addLayout(filters);
    layout->addWidget(legend);

    m_model = new FitTableModel(this);
    auto* proxy = new FitFilter(this);
    proxy->setSourceModel(m_model);
    proxy->setSortRole(FitTableModel::SortRole);
    m_proxy = proxy;
    m_table = new FrozenColumnTableView(this);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(FitTableModel::Memory, Qt::AscendingOrder);
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setAccessibleName(tr("GPU fit table"));
    layout->addWidget(m_table, 1);

    connect(m_vendor, qOverload<int>(&QComboBox::currentIndexChanged), this, [this, proxy] {
        proxy->vendor = m_vendor->currentData().toString();
        proxy->apply();
    });
    connect(m_minMemory, qOverload<double>(&QDoubleSpinBox::valueChanged), this, [proxy](double v) {
        proxy->minUsableGiB = v;
        proxy->apply();
    });
}

void FitView::refresh() {
    const auto& in = controller().planInputs();
    m_model->setRows(core::fitTable(controller().scenario(), controller().catalog().gpus, in), in,
                     controller().scenario().gpuId);
}

} // namespace gpusizer::ui
