#include "GraphCapture.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QSaveFile>

namespace ps::bench {

namespace {

constexpr int kTimeoutS = 600;

QString cachePath(const QString& cacheDir, const std::string& label, const QByteArray& scriptText)
{
    const auto hash = QCryptographicHash::hash(scriptText, QCryptographicHash::Sha256).toHex().left(16);
    return cacheDir + "/" + QString::fromStdString(label) + "-" + QString::fromLatin1(hash) + ".json";
}

}  // namespace

std::optional<BenchGraph> GraphCapture::capture(
    const std::string& label, const QString& script, const QString& cacheDir, std::string* why)
{
    QFile file(script);
    if (!file.open(QIODevice::ReadOnly)) {
        *why = "cannot read " + script.toStdString();
        return std::nullopt;
    }
    const QByteArray text = file.readAll();
    const QString cached = cacheDir.isEmpty() ? QString() : cachePath(cacheDir, label, text);
    if (!cached.isEmpty()) {
        QFile in(cached);
        if (in.open(QIODevice::ReadOnly)) {
            const auto j = nlohmann::json::parse(in.readAll().toStdString(), nullptr, false);
            if (j.is_object() && j.contains("graph") && j["graph"].is_object())
                return BenchGraph{label, j["graph"], j.value("lowering", nlohmann::json())};
        }
    }

    const QString cli = QCoreApplication::applicationDirPath() + "/precompile-studio";
    const QString name = QFileInfo(script).fileName();
    QProcess p;
    p.start(cli,
        {"run", script, "--json", "--no-store", "--no-verify", "--backend", "eager", "--timeout",
            QString::number(kTimeoutS)});
    if (!p.waitForFinished((kTimeoutS + 60) * 1000)) {
        p.kill();
        p.waitForFinished();
        *why = "the worker did not finish " + name.toStdString() + " in " + std::to_string(kTimeoutS + 60) + " s";
        return std::nullopt;
    }
    const QByteArray out = p.readAllStandardOutput();
    const auto report = nlohmann::json::parse(out.constData(), nullptr, false);
    if (!report.is_object() || !report.contains("captures") || !report["captures"].is_array()
        || report["captures"].empty()) {
        *why = "precompile-studio run printed no report with a capture (exit " + std::to_string(p.exitCode())
            + "): " + QString::fromUtf8(p.readAllStandardError()).right(300).toStdString();
        return std::nullopt;
    }
    const auto& cap = report["captures"][0];
    if (!cap.contains("graph") || !cap["graph"].is_object()) {
        *why = name.toStdString() + "'s capture has no graph (status " + cap.value("status", std::string("?")) + ")";
        return std::nullopt;
    }
    BenchGraph g{label, cap["graph"], cap.value("lowering", nlohmann::json())};
    if (!cached.isEmpty() && QDir().mkpath(cacheDir)) {
        QSaveFile save(cached);
        if (save.open(QIODevice::WriteOnly)) {
            save.write(QByteArray::fromStdString(nlohmann::json{{"graph", g.graph}, {"lowering", g.lowering}}.dump()));
            save.commit();
        }
    }
    return g;
}

}  // namespace ps::bench
