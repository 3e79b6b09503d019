#pragma once

#include "remote/RemoteTarget.h"

#include <optional>
#include <string>

/// Opens the studio's window and runs the event loop until it closes; returns the exit code.
/// `fileToOpen`: a script or an exported NAME.py ("" : the last script); `libraryPath`: the
/// library file ("" : the last one opened from the window, else the default); `pythonEnv`: the
/// worker's Python environment on this computer ("" : each folder's choice); `host`: Run On for
/// this session (--host, its environment a path there; nullopt: each folder's choice). What is
/// given here is for this window only: later launches do not inherit it.
int runGui(int argc, char** argv, const std::string& fileToOpen, const std::string& libraryPath,
    const std::string& pythonEnv, const std::optional<ps::remote::RemoteTarget>& host);
