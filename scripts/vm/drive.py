#!/usr/bin/env python3
"""Runs the VM for scripts/vm/run: starts QEMU (TCG, bochs-display, serial on stdio, monitor
on a unix socket), relays the guest's console, and each time the guest says
"VMCHECK SCREEN READY <scene> WxH" takes a `screendump` and compares it pixel for pixel with
that overlay scene as rendered on the host by `booth-vmcheck expected`, then tells the guest to
go on. Negative controls show the comparison can fail: the "adjust" screendump against the same
scene with the guide turned green, and against its expected image with one pixel changed.
Exits 0 only if the guest printed "VMCHECK PASS", every scene matched and the controls failed."""
import argparse, os, select, shutil, socket, subprocess, sys, time


def read_ppm(path):
    with open(path, "rb") as f:
        data = f.read()
    fields, pos = [], 0
    while len(fields) < 4:  # magic, width, height, maxval (comments not expected)
        while data[pos:pos + 1].isspace():
            pos += 1
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    pos += 1
    if fields[0] != b"P6" or fields[3] != b"255":
        raise ValueError(f"{path}: not an 8-bit P6 PPM")
    w, h = int(fields[1]), int(fields[2])
    return w, h, data[pos:pos + w * h * 3]


def differing(a, b, width):
    """Pixels that differ between two same-sized RGB888 buffers (row by row: equal rows are cheap)."""
    row = width * 3
    bad = 0
    for y in range(0, len(a), row):
        ra, rb = a[y:y + row], b[y:y + row]
        if ra != rb:
            bad += sum(1 for i in range(0, row, 3) if ra[i:i + 3] != rb[i:i + 3])
    return bad


def monitor(sock_path, command):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(sock_path)
    s.settimeout(30)
    buf = b""
    while b"(qemu)" not in buf:
        buf += s.recv(4096)
    s.sendall(command.encode() + b"\n")
    buf = b""
    while buf.count(b"(qemu)") < 1:
        buf += s.recv(4096)
    s.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kernel", required=True)
    ap.add_argument("--initrd", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--vmcheck", required=True)
    ap.add_argument("--timeout", type=int, default=300)
    a = ap.parse_args()
    mon = os.path.abspath(os.path.join(a.work, "monitor.sock"))
    shots = os.path.abspath(os.path.join(a.work, "screendump"))
    expected = os.path.abspath(os.path.join(a.work, "expected"))
    if os.path.exists(mon):
        os.unlink(mon)
    for d in (shots, expected):
        shutil.rmtree(d, ignore_errors=True)
    os.makedirs(shots)
    # -cpu max: the cores are built for AVX2 + FMA (Package.swift), which QEMU 7.2+ emulates.
    cmd = ["qemu-system-x86_64", "-accel", "tcg", "-cpu", "max", "-m", "512", "-smp", "1",
           "-kernel", a.kernel, "-initrd", a.initrd,
           "-append", "console=ttyS0 panic=-1 loglevel=3",
           "-device", "bochs-display", "-display", "none", "-vga", "none",
           "-serial", "stdio", "-monitor", f"unix:{mon},server=on,wait=off",
           "-no-reboot"]
    print("vm: " + " ".join(cmd), flush=True)
    t0 = time.time()
    q = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    guest_pass = False
    scenes, controls = {}, {}
    pending = b""
    deadline = t0 + a.timeout
    while True:
        if time.time() > deadline:
            print(f"vm: timeout after {a.timeout} s", flush=True)
            q.kill()
            break
        r, _, _ = select.select([q.stdout], [], [], 1.0)
        if not r:
            if q.poll() is not None:
                break
            continue
        chunk = os.read(q.stdout.fileno(), 4096)
        if not chunk:
            break
        pending += chunk
        while b"\n" in pending:
            raw, pending = pending.split(b"\n", 1)
            line = raw.decode("utf-8", "replace").rstrip("\r")
            print(f"guest {time.time() - t0:6.1f}s | {line}", flush=True)
            if line.startswith("VMCHECK SCREEN READY"):
                scene, size = line.split()[-2:]
                w, h = map(int, size.split("x"))
                if not os.path.isdir(expected):
                    os.makedirs(expected)
                    t = time.time()
                    subprocess.run([a.vmcheck, "expected", str(w), str(h), expected], check=True)
                    print(f"vm: expected scenes rendered on the host in {time.time() - t:.1f} s", flush=True)
                shot = os.path.join(shots, f"{scene}.ppm")
                monitor(mon, f"screendump {shot}")
                sw, sh, sp = read_ppm(shot)
                ew, eh, ep = read_ppm(os.path.join(expected, f"{scene}.ppm"))
                if (sw, sh) != (ew, eh):
                    print(f"vm: screendump {scene} is {sw}x{sh}, expected {ew}x{eh}", flush=True)
                    scenes[scene] = -1
                else:
                    diff = differing(sp, ep, sw)
                    scenes[scene] = diff
                    print(f"vm: screendump {scene} {sw}x{sh} vs host rendering: {diff} of {sw * sh} pixels differ", flush=True)
                    if scene == "adjust":
                        _, _, gp = read_ppm(os.path.join(expected, "adjust-green.ppm"))
                        controls["guide red vs green"] = differing(sp, gp, sw)
                        i = (sh // 2 * sw + sw // 3) * 3
                        one = bytearray(ep)
                        one[i + 2] ^= 1
                        controls["one changed pixel"] = differing(sp, bytes(one), sw)
                        print(f"vm: control: screendump vs the guide turned green: {controls['guide red vs green']} pixels differ; "
                              f"vs one changed pixel: {controls['one changed pixel']} differ", flush=True)
                q.stdin.write(b"go\n")
                q.stdin.flush()
            if line.strip() == "VMCHECK PASS":
                guest_pass = True
    try:
        q.wait(timeout=10)
    except subprocess.TimeoutExpired:
        q.kill()
    wanted = ["adjust", "ready", "countdown", "review", "camera-unavailable"]
    screens_ok = sorted(scenes) == sorted(wanted) and all(d == 0 for d in scenes.values())
    controls_ok = controls.get("guide red vs green", 0) > 0 and controls.get("one changed pixel") == 1
    print(f"vm: guest {'PASS' if guest_pass else 'FAIL'}; screendumps "
          f"{', '.join(f'{k} {v}' for k, v in scenes.items()) or 'none'} pixels differ "
          f"({'match' if screens_ok else 'MISMATCH'}); controls {'caught' if controls_ok else 'NOT CAUGHT'}; "
          f"{time.time() - t0:.1f} s in QEMU", flush=True)
    return 0 if guest_pass and screens_ok and controls_ok else 1


if __name__ == "__main__":
    sys.exit(main())
