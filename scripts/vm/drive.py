#!/usr/bin/env python3
"""Runs the VM for scripts/vm/run: starts QEMU (TCG, bochs-display, serial on stdio, monitor
on a unix socket), relays the guest's console, takes a `screendump` when the guest says
"VMCHECK SCREEN READY WxH", compares it with the expected pattern written by
`booth-vmcheck pattern`, tells the guest to go on, and exits 0 only if the guest printed
"VMCHECK PASS" and the screendump matched."""
import argparse, os, select, socket, subprocess, sys, time


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
    shot = os.path.abspath(os.path.join(a.work, "screendump.ppm"))
    expected = os.path.abspath(os.path.join(a.work, "expected.ppm"))
    for p in (mon, shot, expected):
        if os.path.exists(p):
            os.unlink(p)
    cmd = ["qemu-system-x86_64", "-accel", "tcg", "-m", "512", "-smp", "1",
           "-kernel", a.kernel, "-initrd", a.initrd,
           "-append", "console=ttyS0 panic=-1 loglevel=3",
           "-device", "bochs-display", "-display", "none", "-vga", "none",
           "-serial", "stdio", "-monitor", f"unix:{mon},server=on,wait=off",
           "-no-reboot"]
    print("vm: " + " ".join(cmd), flush=True)
    t0 = time.time()
    q = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    guest_pass = False
    screen_ok = None
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
                w, h = map(int, line.split()[-1].split("x"))
                monitor(mon, f"screendump {shot}")
                subprocess.run([a.vmcheck, "pattern", str(w), str(h), expected], check=True)
                sw, sh, sp = read_ppm(shot)
                ew, eh, ep = read_ppm(expected)
                if (sw, sh) != (ew, eh):
                    print(f"vm: screendump is {sw}x{sh}, expected {ew}x{eh}", flush=True)
                    screen_ok = False
                else:
                    diff = sum(1 for i in range(0, len(ep), 3) if sp[i:i + 3] != ep[i:i + 3])
                    print(f"vm: screendump {sw}x{sh} vs expected pattern: {diff} pixels differ", flush=True)
                    screen_ok = diff == 0
                q.stdin.write(b"go\n")
                q.stdin.flush()
            if line.strip() == "VMCHECK PASS":
                guest_pass = True
    try:
        q.wait(timeout=10)
    except subprocess.TimeoutExpired:
        q.kill()
    print(f"vm: guest {'PASS' if guest_pass else 'FAIL'}, screendump "
          f"{'match' if screen_ok else 'MISMATCH' if screen_ok is False else 'not taken'}, "
          f"{time.time() - t0:.1f} s in QEMU", flush=True)
    return 0 if guest_pass and screen_ok else 1


if __name__ == "__main__":
    sys.exit(main())
