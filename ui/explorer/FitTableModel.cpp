#include "FitTableModel.h"

#include "../Present.h"
#include "gpusizer/present/Format.h"
#include "gpusizer/present/PlanText.h"

#include <QtGui/QColor>
#include <QtGui/QFont>
#include <limits>

namespace gpusizer::ui {

FitTableModel::FitTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void FitTableModel::setRows(std::vector<core::FitRow> rows, const core::PlanInputs& inputs,
                            const std::string& selectedGpuId) {
    const bool sameShape = rows.size() == m_rows.size();
    if (!sameShape) {
        beginResetModel();
    }
    m_rows = std::move(rows);
    m_inputs = inputs;
    m_selected = selectedGpuId;
    if (sameShape) {
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
    } else {
        endResetModel();
    }
}

int FitTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int FitTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QColor FitTableModel::verdictColor(core::FitVerdict verdict, bool fitsWithAnotherLayout) {
    switch (verdict) {
    case core::FitVerdict::Fits:
        return QColor(0xc8, 0xe6, 0xc9); // green
    case core::FitVerdict::Tight:
        return QColor(0xff, 0xe0, 0x82); // amber
    case core::FitVerdict::DoesNotFit:
        break;
    }
    return fitsWithAnotherLayout ? QColor(0xff, 0xe0, 0x82) : QColor(0xff, 0xcd, 0xd2); // amber / red
}

QVariant FitTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) {
        return {};
    }
    const core::FitRow& r = m_rows[static_cast<std::size_t>(index.row())];
    const core::GpuSpec& g = *r.gpu;
    const core::Candidate& own = r.asIs;
    const core::CardPlan& best = r.best;
    const bool selected = g.id == m_selected;
    if (role == Qt::BackgroundRole) {
        if (index.column() == YourLayout) {
            return verdictColor(own.verdict, best.found);
        }
        if (index.column() == BestLayout) {
            return best.found ? QColor(0xc8, 0xe6, 0xc9) : QColor(0xff, 0xcd, 0xd2);
        }
        return {};
    }
    if (role == Qt::ForegroundRole && (index.column() == YourLayout || index.column() == BestLayout)) {
        return QColor(Qt::black); // the verdict colours are light in both palettes
    }
    if (role == Qt::FontRole && selected) {
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    if (role == VendorRole) {
        return QString::fromStdString(g.vendor);
    }
    if (role == Qt::ToolTipRole) {
        switch (index.column()) {
        case Gpu:
            return tr("%1 %2: %3 GB stated, %4 GiB usable, %5 TB/s, %6 BF16 TFLOPS dense%7")
                .arg(QString::fromStdString(g.vendor), QString::fromStdString(g.name))
                .arg(g.memoryGiBStated)
                .arg(g.memoryGiBUsable)
                .arg(g.bandwidthTBs)
                .arg(g.bf16Tflops)
                .arg(selected ? tr(" (the scenario's GPU)") : QString());
        case YourLayout:
            return own.fits() ? tr("%1 per GPU with your layout; %2 margin kept")
                                    .arg(text(present::gib(own.deviceBytes)), text(present::percent(own.marginShare)))
                              : text(present::whyNot(own));
        case BestLayout:
            if (best.found) {
                QString tip = text(present::layoutParts(best.best.scenario));
                if (best.fewerCards) {
                    tip += tr("\nFewer cards (%1): %2")
                               .arg(best.fewerCards->scenario.gpus)
                               .arg(text(present::whyNot(*best.fewerCards)));
                }
                return tip;
            }
            return best.fewerCards ? text(present::whyNot(*best.fewerCards)) : QVariant();
        default:
            return {};
        }
    }
    if (role == Qt::TextAlignmentRole) {
        return (index.column() == Gpu || index.column() == YourLayout || index.column() == BestLayout)
                   ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                   : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    const bool sort = role == SortRole;
    if (role != Qt::DisplayRole && !sort) {
        return {};
    }
    const double inf = std::numeric_limits<double>::infinity();
    const double headroom =
        own.usableBytes > 0 ? 1.0 - static_cast<double>(own.deviceBytes) / static_cast<double>(own.usableBytes) : 0.0;
    switch (index.column()) {
    case Gpu:
        return selected && !sort ? tr("▶ %1").arg(QString::fromStdString(g.name)) : QString::fromStdString(g.name);
    case YourLayout:
        if (sort) {
            return static_cast<int>(own.verdict);
        }
        return tr("%1 on %2").arg(text(present::verdictWord(own.verdict))).arg(own.scenario.gpus);
    case BestLayout:
        if (sort) {
            return best.found ? static_cast<double>(best.best.scenario.gpus) : inf;
        }
        // The micro-batch split and checkpointing are in the tooltip: the cell stays narrow enough for the wall time
        // and cost to show beside it.
        return best.found ? text(present::cardsAndParallelism(best.best.scenario))
                          : tr("none up to %1").arg(m_inputs.maxGpus);
    case WallTime:
        if (sort) {
            return best.found ? best.best.plan.wallHours : inf;
        }
        return best.found ? text(present::duration(best.best.plan.wallHours)) : QString();
    case Cost:
        if (sort) {
            return best.found ? core::costOf(best.best, m_inputs) : inf;
        }
        return best.found ? text(present::usd(core::costOf(best.best, m_inputs))) : QString();
    case UsagePerGpu:
        return sort ? QVariant(static_cast<qlonglong>(own.deviceBytes)) : QVariant(text(present::gib(own.deviceBytes)));
    case Headroom:
        return sort ? QVariant(headroom) : QVariant(text(present::percent(headroom)));
    case MaxMicroBatch:
        return sort ? QVariant(static_cast<qlonglong>(r.maxMicroBatchOneCard))
                    : QVariant(r.maxMicroBatchOneCard == 0 ? tr("none") : text(present::count(r.maxMicroBatchOneCard)));
    case MaxSeqLen:
        return sort ? QVariant(static_cast<qlonglong>(r.maxSeqLenOneCard))
                    : QVariant(r.maxSeqLenOneCard == 0 ? tr("none") : text(present::count(r.maxSeqLenOneCard)));
    case Memory:
        return sort ? QVariant(g.memoryGiBUsable) : QVariant(tr("%1 GiB").arg(g.memoryGiBUsable));
    case PricePerHour:
        return sort ? QVariant(g.priceOnDemandUsdHour) : QVariant(text(present::usd(g.priceOnDemandUsdHour)));
    default:
        return {};
    }
}

QVariant FitTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) {
        return {};
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case YourLayout:
            return tr("Your scenario as set (its GPU count, sharding and parallelism) on this card: fits with the "
                      "margin, tight (only the estimate fits), or does not fit.");
        case BestLayout:
            return tr("What the planner would rent on this card: cards and layout by the objective (Plan tab).");
        case WallTime:
            return tr("Wall time of the planner's choice for the Plan tab's dataset.");
        case Cost:
            return tr("Cost of the planner's choice.");
        case UsagePerGpu:
            return tr("Device memory per GPU with your layout (what nvidia-smi would show).");
        case Headroom:
            return tr("Share of the card's usable memory left free with your layout.");
        case MaxMicroBatch:
            return tr("Largest micro-batch that fits one card, with the margin, at the current sequence length.");
        case MaxSeqLen:
            return tr("Longest sequence that fits one card, with the margin, at the current micro-batch.");
        case Memory:
            return tr("Memory a training process can use (GiB); the vendor's figure is in the GPU's tooltip.");
        case PricePerHour:
            return tr("Illustrative on-demand price per GPU-hour (catalog; prices vary).");
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case Gpu:
        return tr("GPU");
    case YourLayout:
        return tr("Your layout");
    case BestLayout:
        return tr("Best on this card");
    case WallTime:
        return tr("Wall time");
    case Cost:
        return tr("Cost");
    case UsagePerGpu:
        return tr("Yours per GPU");
    case Headroom:
        return tr("Headroom");
    case MaxMicroBatch:
        return tr("Max batch");
    case MaxSeqLen:
        return tr("Max seq.");
    case Memory:
        return tr("Usable");
    case PricePerHour:
        return tr("$/GPU-h");
    default:
        return {};
    }
}

} // namespace gpusizer::ui
