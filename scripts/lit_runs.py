"""What the scripts that read lit tests share: a test's RUN commands."""
import re


def run_lines(text):
    """The RUN commands of a lit test's \\p text, continuation lines joined."""
    out, cur = [], ""
    for line in text.splitlines():
        m = re.search(r"RUN:(.*)$", line)
        if not m:
            continue
        part = m.group(1).strip()
        if part.endswith("\\"):
            cur += part[:-1] + " "
            continue
        out.append(cur + part)
        cur = ""
    return out
