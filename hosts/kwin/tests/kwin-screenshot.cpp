/*
 * kwin-screenshot: saves a PNG of an area of KWin's composed frame, through KWin's
 * org.kde.KWin.ScreenShot2 D-Bus interface (what spectacle uses; no Wayland client capture
 * such as grim works in KWin 5.27: it has no wlr-screencopy).
 *
 *     kwin-screenshot OUT.png X Y WIDTH HEIGHT
 *
 * KWin answers only processes a desktop file grants the interface to, matched by the
 * executable's path: X-KDE-DBUS-Restricted-Interfaces=org.kde.KWin.ScreenShot2 in a desktop
 * file whose Exec is this program (the tests write one into KWin's XDG_DATA_HOME). The
 * capture has no cursor (include-cursor is not asked for): the adaptive pointer is part of
 * the composed frame.
 */
#include <QCoreApplication>
#include <QDBusConnection>
#include <QDBusInterface>
#include <QDBusReply>
#include <QDBusUnixFileDescriptor>
#include <QImage>
#include <QVariantMap>

#include <cstdio>
#include <unistd.h>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (argc != 6) {
        fprintf(stderr, "usage: kwin-screenshot OUT.png X Y WIDTH HEIGHT\n");
        return 2;
    }
    int fds[2];
    if (pipe(fds) != 0) {
        perror("kwin-screenshot: pipe");
        return 1;
    }
    QDBusInterface screenshot(QStringLiteral("org.kde.KWin"), QStringLiteral("/org/kde/KWin/ScreenShot2"),
                              QStringLiteral("org.kde.KWin.ScreenShot2"));
    const QDBusReply<QVariantMap> reply = screenshot.call(
        QStringLiteral("CaptureArea"), atoi(argv[2]), atoi(argv[3]), uint(atoi(argv[4])), uint(atoi(argv[5])), QVariantMap(),
        QVariant::fromValue(QDBusUnixFileDescriptor(fds[1])));
    close(fds[1]);  // KWin writes into its own copy and closes it when done
    if (!reply.isValid()) {
        fprintf(stderr, "kwin-screenshot: %s: %s\n", qPrintable(reply.error().name()), qPrintable(reply.error().message()));
        return 1;
    }
    QByteArray data;
    char chunk[65536];
    for (ssize_t n; (n = read(fds[0], chunk, sizeof chunk)) != 0;) {
        if (n < 0) {
            perror("kwin-screenshot: read");
            return 1;
        }
        data.append(chunk, n);
    }
    const QVariantMap results = reply.value();
    const int width = results.value(QStringLiteral("width")).toInt(), height = results.value(QStringLiteral("height")).toInt();
    const int stride = results.value(QStringLiteral("stride")).toInt();
    const auto format = QImage::Format(results.value(QStringLiteral("format")).toInt());
    if (width <= 0 || height <= 0 || data.size() < qsizetype(stride) * height) {
        fprintf(stderr, "kwin-screenshot: %d bytes for %dx%d, stride %d\n", int(data.size()), width, height, stride);
        return 1;
    }
    const QImage image(reinterpret_cast<const uchar *>(data.constData()), width, height, stride, format);
    if (!image.save(QString::fromLocal8Bit(argv[1]), "PNG")) {
        fprintf(stderr, "kwin-screenshot: cannot write %s\n", argv[1]);
        return 1;
    }
    return 0;
}
