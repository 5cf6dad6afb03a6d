#!/usr/bin/env python3
"""Loopback RTPS sniffer (root, AF_PACKET): names every endpoint from SEDP (topic, type,
USER_DATA) and prints the user DATA samples on topics matching a filter, with their inline
QoS PIDs (0x0083 / 0x800f = related sample identity) and the first bytes of the payload.

Usage: rtps_sniff.py SECONDS TOPIC_SUBSTRING [TOPIC_SUBSTRING...]
Written for issue 21; nothing of it ships.
"""
import socket, struct, sys, time

PACKET_OUTGOING = 4
secs = float(sys.argv[1]); filters = sys.argv[2:]
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.ntohs(0x0003))
s.bind(('lo', 0)); s.settimeout(0.2)
endpoints = {}   # guid bytes (16) -> (topic, type, userdata)

def plist(buf, le=True):
    out = []; i = 0; e = '<' if le else '>'
    while i + 4 <= len(buf):
        pid, ln = struct.unpack_from(e + 'HH', buf, i); i += 4
        if pid == 1: break
        out.append((pid, buf[i:i + ln])); i += ln
    return out

def cdr_str(b):
    n = struct.unpack_from('<I', b, 0)[0]
    return b[4:4 + n - 1].decode(errors='replace')

def handle(data, vendor, prefix):
    i = 20
    while i + 4 <= len(data):
        sid, flags, ln = data[i], data[i + 1], struct.unpack_from('<H' if data[i+1] & 1 else '>H', data, i + 2)[0]
        body = data[i + 4: i + 4 + ln] if ln else data[i + 4:]
        i += 4 + ln if ln else len(data)
        if sid != 0x15 or len(body) < 20: continue
        le = flags & 1
        oq = struct.unpack_from('<H' if le else '>H', body, 2)[0]
        wid = body[8:12]; hi, lo = struct.unpack_from('<iI' if le else '>iI', body, 12)
        p = 4 + oq; inline = []
        if flags & 0x02:
            inline = plist(body[p:], le); 
            # skip inline qos
            j = p
            while True:
                pid, l2 = struct.unpack_from('<HH' if le else '>HH', body, j); j += 4 + l2
                if pid == 1: break
            p = j
        payload = body[p:] if flags & 0x04 else b''
        if wid in (b'\x00\x00\x03\xc2', b'\x00\x00\x04\xc2') and payload:
            params = dict()
            ud = None
            for pid, v in plist(payload[4:], payload[1] == 3):
                if pid == 0x5: params['topic'] = cdr_str(v)
                elif pid == 0x7: params['type'] = cdr_str(v)
                elif pid == 0x5a: params['guid'] = bytes(v[:16])
                elif pid == 0x2c: ud = bytes(v[4:4 + struct.unpack_from('<I', v, 0)[0]])
            if 'guid' in params and params['guid'] not in endpoints:
                endpoints[params['guid']] = (params.get('topic'), params.get('type'), ud)
                if any(f in (params.get('topic') or '') for f in filters):
                    kind = 'W' if wid[2] == 3 else 'R'
                    print(f"EP {kind} vendor={vendor.hex()} {params.get('topic')} {params.get('type')} user_data={ud!r}", flush=True)
        elif wid[3] in (0x02, 0x03) and payload:
            ep = endpoints.get(prefix + wid)
            topic = ep[0] if ep else '?'
            if any(f in topic for f in filters):
                pids = [f"{pid:#06x}:{v.hex()}" for pid, v in inline]
                print(f"DATA vendor={vendor.hex()} {topic} sn={(hi << 32) | lo} inline={pids} "
                      f"payload[{len(payload)}]={payload[:40].hex(' ')}", flush=True)

end = time.time() + secs
while time.time() < end:
    try:
        pkt, addr = s.recvfrom(65535)
    except socket.timeout:
        continue
    if addr[2] == PACKET_OUTGOING: continue
    if len(pkt) < 14 + 20 + 8: continue
    ip = pkt[14:]
    if ip[9] != 17: continue
    udp = ip[(ip[0] & 0xf) * 4:]
    data = udp[8:]
    if data[:4] != b'RTPS': continue
    handle(data, data[6:8], data[8:20])
