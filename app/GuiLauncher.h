#pragma once

#include <string>

/// Opens the studio's window and runs the event loop until it closes; returns the exit code.
/// `fileToOpen`: a script or an exported NAME.py ("" : the last script); `libraryPath`: the
/// library file ("" : the last one opened from the window, else the default); `pythonEnv`: the
/// worker's Python environment ("" : the one the build was configured with). The library and
/// the environment given here are for this window only: later launches do not inherit them.
int runGui(
    int argc, char** argv, const std::string& fileToOpen, const std::string& libraryPath, const std::string& pythonEnv);
