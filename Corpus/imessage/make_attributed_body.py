#!/usr/bin/env python3
"""Prints the X'…' SQL literal of an iMessage attributedBody holding a text, for chat.sql.

The bytes are a NeXT typedstream (NSArchiver) as macOS writes them: the header
(version 4, "streamtyped", system version 1000), an NSMutableAttributedString (or, with
--plain, an NSAttributedString) whose first value is an NSMutableString/NSString holding the
UTF-8 text ('+' type: a length, one byte or 0x81 + two bytes little-endian, then the
bytes), then one attribute run over the whole text.

    python3 make_attributed_body.py "Yes! 9:00 at the crag ☕"
    python3 make_attributed_body.py --plain "שלום לכולם! נתראה בשבת 🙂"
"""
import sys


def length(n):
    if n < 128:
        return bytes([n])
    if n < 65536:
        return b'\x81' + n.to_bytes(2, 'little')
    return b'\x82' + n.to_bytes(4, 'little')


def new_class(name, version):
    return b'\x84\x84' + bytes([len(name)]) + name + bytes([version])


def attributed_body(text, plain=False):
    out = bytearray(b'\x04\x0bstreamtyped\x81\xe8\x03\x84\x01@\x84')
    if plain:
        out += new_class(b'NSAttributedString', 0) + new_class(b'NSObject', 0) + b'\x85'
        out += b'\x92\x84' + new_class(b'NSString', 1) + b'\x94'
    else:
        out += new_class(b'NSMutableAttributedString', 0) + new_class(b'NSAttributedString', 0)
        out += new_class(b'NSObject', 0) + b'\x85'
        out += b'\x92\x84' + new_class(b'NSMutableString', 1) + new_class(b'NSString', 1) + b'\x95'
    data = text.encode()
    utf16 = len(text.encode('utf-16-le')) // 2
    out += b'\x84\x01+' + length(len(data)) + data + b'\x86'
    # One attribute run (iI: dictionary index 1, run length in UTF-16 units) and its dictionary.
    out += b'\x84\x02iI\x01' + length(utf16)
    out += b'\x92\x84\x84\x84\x0cNSDictionary\x00\x94\x84\x01i\x01\x92\x84\x96\x96\x1d__kIMMessagePartAttributeName'
    out += b'\x86\x92\x84\x84\x84\x08NSNumber\x00\x84\x84\x07NSValue\x00\x94\x84\x01*\x84\x99\x99\x00\x86\x86\x86'
    return bytes(out)


if __name__ == '__main__':
    args = sys.argv[1:]
    plain = '--plain' in args
    for text in (a for a in args if a != '--plain'):
        print("X'" + attributed_body(text, plain).hex().upper() + "'")
