#pragma once

#include <string>

/// Opens the studio's window and runs the event loop until it closes; returns the exit code.
/// `fileToOpen`: a script or an exported NAME.py ("" : the last script); `libraryPath`: the
/// library file ("" : the last one used, else the default); `pythonEnv`: the worker's Python
/// environment ("" : the one the build was configured with).
int runGui(
    int argc, char** argv, const std::string& fileToOpen, const std::string& libraryPath, const std::string& pythonEnv);
