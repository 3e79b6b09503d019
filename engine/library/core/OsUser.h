#pragma once

#include <string>

namespace ps::library {

/// The account this process runs as, the "who" a stored run records beside a database role.
class OsUser {
public:
    /// The login name of the effective user (getpwuid), else $USER, else "uid N".
    static std::string name();
};

}  // namespace ps::library
