#pragma once
// The commands of gpusizer-cli, one file each; Run.cpp lists them with their usage lines.

#include "Support.h"

namespace gpusizer::cli {

using CommandFn = int (*)(const Args& a, std::ostream& out, std::ostream& err);

/// One command: its name, its usage line(s), what it does, and the function that runs it.
struct Command {
    const char* name;
    const char* synopsis;
    const char* summary;
    CommandFn run;
};

/// Every command in the order `help` lists them.
const std::vector<Command>& commands();

/// The usage text, generated from the command table.
std::string usageText();

int estimateCommand(const Args& a, std::ostream& out, std::ostream& err);
int gpusCommand(const Args& a, std::ostream& out, std::ostream& err);
int modelsCommand(const Args& a, std::ostream& out, std::ostream& err);
int importHfCommand(const Args& a, std::ostream& out, std::ostream& err);
int importConfigCommand(const Args& a, std::ostream& out, std::ostream& err);
int adviseCommand(const Args& a, std::ostream& out, std::ostream& err);
int sizingTableCommand(const Args& a, std::ostream& out, std::ostream& err);
int fitCommand(const Args& a, std::ostream& out, std::ostream& err);
int planCommand(const Args& a, std::ostream& out, std::ostream& err);
int probeScriptCommand(const Args& a, std::ostream& out, std::ostream& err);
int datasetScriptCommand(const Args& a, std::ostream& out, std::ostream& err);
int importLengthsCommand(const Args& a, std::ostream& out, std::ostream& err);
int compareMeasuredCommand(const Args& a, std::ostream& out, std::ostream& err);
int reportCommand(const Args& a, std::ostream& out, std::ostream& err);
int fieldsCommand(const Args& a, std::ostream& out, std::ostream& err);
int importKeysCommand(const Args& a, std::ostream& out, std::ostream& err);

} // namespace gpusizer::cli
