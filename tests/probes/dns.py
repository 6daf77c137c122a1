"""dns.py NAME FILE [ADDRESS [GATE]]: a DNS server for the tests on ADDRESS
(127.0.0.1 unless given) port 53 (UDP), which knows one name: NAME's A
record is 127.0.0.1; any other name does not exist, and NAME has no other
record.  It writes "ready" to FILE once it listens, and answers for at
most 60 s; with GATE, it answers nothing until the file GATE exists."""
import os
import socket
import struct
import sys
import time

name, out = sys.argv[1].lower().rstrip("."), sys.argv[2]
address = sys.argv[3] if len(sys.argv) > 3 else "127.0.0.1"
gate = sys.argv[4] if len(sys.argv) > 4 else None
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind((address, 53))
with open(out, "w") as f:
    f.write("ready\n")
s.settimeout(1)
end = time.monotonic() + 60
while time.monotonic() < end:
    try:
        q, peer = s.recvfrom(512)
    except socket.timeout:
        continue
    if len(q) < 17 or (gate is not None and not os.path.exists(gate)):
        continue
    i, labels = 12, []
    while i < len(q) and q[i] != 0:
        labels.append(q[i + 1:i + 1 + q[i]].decode("ascii", "replace"))
        i += 1 + q[i]
    qtype = struct.unpack("!H", q[i + 1:i + 3])[0]
    question = q[12:i + 5]
    asked = ".".join(labels).lower()
    answers = b""
    rcode = 0 if asked == name else 3
    if asked == name and qtype == 1:
        answers = struct.pack("!HHHIH", 0xC00C, 1, 1, 60, 4) + \
            socket.inet_aton("127.0.0.1")
    head = q[:2] + struct.pack("!HHHHH", 0x8180 | rcode, 1,
                               1 if answers else 0, 0, 0)
    s.sendto(head + question + answers, peer)
