#!/usr/bin/env python3
"""Recompute RIHS01 type hashes from rosidl's generated *.json type descriptions.

Usage: rihs01.py /opt/ros/jazzy-min/share/std_msgs/msg/String.json [...]
Prints the recomputed hash and whether it matches the one rosidl stored.
The algorithm is rosidl_generator_type_description.calculate_type_hash:
drop every field's default_value, json.dumps with separators (', ', ': '), no indent,
keys in insertion order (type_description{type_name, fields[{name, type{type_id, capacity,
string_capacity, nested_type_name}}]}, referenced_type_descriptions sorted by type_name),
sha256 over the UTF-8, 'RIHS01_' + hexdigest.
"""
import copy, hashlib, json, sys

def rihs01(tdm):
    d = copy.deepcopy(tdm)
    for td in [d['type_description']] + d['referenced_type_descriptions']:
        for f in td['fields']:
            f.pop('default_value', None)
    text = json.dumps(d, ensure_ascii=True, indent=None, separators=(', ', ': '), sort_keys=False)
    return 'RIHS01_' + hashlib.sha256(text.encode()).hexdigest(), text

ok = True
for path in sys.argv[1:]:
    j = json.load(open(path))
    h, text = rihs01(j['type_description_msg'])
    stored = j['type_hashes'][0]['hash_string']
    same = h == stored
    ok &= same
    print(f"{'OK ' if same else 'BAD'} {j['type_hashes'][0]['type_name']} {h}")
    if len(sys.argv) == 2:
        print(text)
sys.exit(0 if ok else 1)
