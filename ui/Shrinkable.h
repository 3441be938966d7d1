#pragma once

#include <QtWidgets/QComboBox>

namespace gpusizer::ui {

/// A combo box as wide as its layout gives it, at least `characters` wide, rather than as wide as its longest item
/// (long GPU and option names otherwise set the whole window's minimum width). The popup still shows items in full.
inline void makeShrinkable(QComboBox* box, int characters) {
    box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    box->setMinimumContentsLength(characters);
}

} // namespace gpusizer::ui
