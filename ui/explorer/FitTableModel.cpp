#include "FitTableModel.h"

#include "../Format.h"

#include <QtGui/QColor>
#include <limits>

namespace gpusizer::ui {

FitTableModel::FitTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void FitTableModel::setRows(std::vector<core::FitRow> rows) {
    if (rows.size() == m_rows.size()) {
        m_rows = std::move(rows);
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
        return;
    }
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

int FitTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int FitTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QColor FitTableModel::verdictColor(core::FitVerdict verdict, bool fitsWithMoreCards) {
    switch (verdict) {
    case core::FitVerdict::Fits:
        return QColor(0xc8, 0xe6, 0xc9); // green
    case core::FitVerdict::Tight:
        return QColor(0xff, 0xe0, 0x82); // amber
    case core::FitVerdict::DoesNotFit:
        break;
    }
    return fitsWithMoreCards ? QColor(0xff, 0xe0, 0x82) : QColor(0xff, 0xcd, 0xd2); // amber / red
}

QVariant FitTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) {
        return {};
    }
    const core::FitRow& r = m_rows[static_cast<std::size_t>(index.row())];
    const core::GpuSpec& g = *r.gpu;
    const bool moreCards = r.minCardsCurrentSharding.has_value() || r.minCardsZero3.has_value();
    if (role == Qt::BackgroundRole) {
        return verdictColor(r.oneCard, moreCards);
    }
    if (role == Qt::ForegroundRole) {
        return QColor(Qt::black); // the row colours are light in both palettes
    }
    if (role == VendorRole) {
        return QString::fromStdString(g.vendor);
    }
    if (role == Qt::ToolTipRole && index.column() == Gpu) {
        return tr("%1 %2: %3 GB stated, %4 GiB usable, %5 TB/s, %6 BF16 TFLOPS dense")
            .arg(QString::fromStdString(g.vendor), QString::fromStdString(g.name))
            .arg(g.memoryGiBStated)
            .arg(g.memoryGiBUsable)
            .arg(g.bandwidthTBs)
            .arg(g.bf16Tflops);
    }
    if (role == Qt::TextAlignmentRole) {
        return index.column() == Gpu ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                     : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    const bool sort = role == SortRole;
    if (role != Qt::DisplayRole && !sort) {
        return {};
    }
    auto cards = [&](const std::optional<std::int64_t>& n) -> QVariant {
        if (sort) {
            return n ? static_cast<qlonglong>(*n) : std::numeric_limits<qlonglong>::max();
        }
        return n ? QVariant(formatCount(*n)) : QVariant(tr("> %1").arg(core::kMaxCards));
    };
    switch (index.column()) {
    case Gpu:
        return QString::fromStdString(g.name);
    case Memory:
        return sort ? QVariant(g.memoryGiBUsable) : QVariant(tr("%1 GiB").arg(g.memoryGiBUsable));
    case OneCard:
        if (sort) {
            return static_cast<int>(r.oneCard);
        }
        return r.oneCard == core::FitVerdict::Fits ? tr("yes")
                                                   : (r.oneCard == core::FitVerdict::Tight ? tr("tight") : tr("no"));
    case UsagePerGpu:
        return sort ? QVariant(static_cast<qlonglong>(r.oneCardDeviceBytes))
                    : QVariant(formatGiB(r.oneCardDeviceBytes));
    case Headroom:
        return sort ? QVariant(r.oneCardHeadroomShare) : QVariant(formatPercent(r.oneCardHeadroomShare));
    case MinCards:
        return cards(r.minCardsCurrentSharding);
    case MinCardsZero3:
        return cards(r.minCardsZero3);
    case MaxMicroBatch:
        return sort ? QVariant(static_cast<qlonglong>(r.maxMicroBatchOneCard))
                    : QVariant(r.maxMicroBatchOneCard == 0 ? tr("none") : formatCount(r.maxMicroBatchOneCard));
    case MaxSeqLen:
        return sort ? QVariant(static_cast<qlonglong>(r.maxSeqLenOneCard))
                    : QVariant(r.maxSeqLenOneCard == 0 ? tr("none") : formatCount(r.maxSeqLenOneCard));
    case PricePerHour:
        return sort ? QVariant(g.priceOnDemandUsdHour)
                    : QVariant(QStringLiteral("$%1").arg(g.priceOnDemandUsdHour, 0, 'f', 2));
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
        case Memory:
            return tr("Memory a training process can use (GiB); the vendor's figure is in the GPU's tooltip.");
        case OneCard:
            return tr("Fits on one card: yes (10% or more free), tight (under 10% free), no.");
        case UsagePerGpu:
            return tr("Device memory per GPU on one card (what nvidia-smi would show), GiB.");
        case Headroom:
            return tr("Share of the card's usable memory left free on one card.");
        case MinCards:
            return tr("Fewest cards that fit with the scenario's sharding and parallelism (multiples of TP × PP).");
        case MinCardsZero3:
            return tr("Fewest cards that fit with ZeRO-3 / FSDP full shard: model states divided, activations not.");
        case MaxMicroBatch:
            return tr("Largest micro-batch that fits one card at the current sequence length.");
        case MaxSeqLen:
            return tr("Longest sequence that fits one card at the current micro-batch.");
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
    case Memory:
        return tr("Usable");
    case OneCard:
        return tr("1 card?");
    case UsagePerGpu:
        return tr("Per GPU");
    case Headroom:
        return tr("Headroom");
    case MinCards:
        return tr("Min cards");
    case MinCardsZero3:
        return tr("Min (ZeRO-3)");
    case MaxMicroBatch:
        return tr("Max batch");
    case MaxSeqLen:
        return tr("Max seq.");
    case PricePerHour:
        return tr("$/GPU-h");
    default:
        return {};
    }
}

} // namespace gpusizer::ui
