#include "gpusizer/present/Message.h"

namespace gpusizer::present {

std::string english(const Message& m) {
    return m.english();
}

std::string english(const std::vector<Message>& parts) {
    return joined(parts).english();
}

} // namespace gpusizer::present
