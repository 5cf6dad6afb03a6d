"""The web window in a real browser (Debian's chromium, headless, driven by selenium), against
the simulated robot that tests/graph_web.rs launched.

    python3 tests/web/browser.py URL KEY SCREENSHOT
    python3 tests/web/browser.py --replay URL SCREENSHOT


Plays c3-d4 by clicking, waits for the robot's answer, checks the face, the speech, the arm,
the health panel, a spectator who cannot move, and bad requests that change nothing. Exits 0
when every check holds; otherwise prints what failed and exits 1.
"""

import json
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

REPLAY = sys.argv[1] == "--replay"
if REPLAY:
    URL, KEY, SHOT = sys.argv[2], "", sys.argv[3]
else:
    URL, KEY, SHOT = sys.argv[1], sys.argv[2], sys.argv[3]
START = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
# Square numbers (PDN): c3 = 22, d4 = 18.
C3, D4 = 22, 18


def browser(phone=False):
    o = Options()
    o.binary_location = "/usr/bin/chromium"
    for a in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
              "--window-size=1280,1000"):
        o.add_argument(a)
    if phone:
        o.add_experimental_option("mobileEmulation", {
            "deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 3, "touch": True}})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)


def wait(what, pred, timeout=60.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            v = pred()
            if v:
                return v
        except Exception:  # the page is still being built
            pass
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def attr(d, css, name):
    """An attribute read in one step in the page: the page redraws parts of itself ten times a
    second, and an element found first and read after may be gone by then."""
    return d.execute_script(
        "const e = document.querySelector(arguments[0]);"
        "return e ? e.getAttribute(arguments[1]) : null;", css, name)


def texts(d, css):
    """The text of every element `css` selects, read in one step (see `attr`)."""
    return d.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map((e) => e.textContent.trim());",
        css)


def lit(d):
    """Which LEDs of both eyes are on, as one string."""
    return d.execute_script(
        "return [...document.querySelectorAll('#left-eye .led, #right-eye .led')]"
        ".map((e) => e.classList.contains('on') ? '1' : '0').join('');")


RAW = """
const [url, msgs, done] = [arguments[0], arguments[1], arguments[arguments.length - 1]];
const ws = new WebSocket(url);
const got = [];
ws.onmessage = (m) => {
  const o = JSON.parse(m.data);
  if (o.op === 'reply' || o.op === 'error') got.push(o);
  if (got.length === msgs.length) { ws.close(); done(got); }
};
ws.onopen = () => msgs.forEach((m) => ws.send(m));
ws.onerror = () => done(got);
setTimeout(() => done(got), 15000);
"""


def raw(d, query, msgs):
    """Sends `msgs` on a WebSocket of its own from the page, returns the replies and errors."""
    d.set_script_timeout(20)
    ws = URL.replace("http://", "ws://") + "ws" + query
    return d.execute_async_script(RAW, ws, msgs)


def main():
    player = browser()
    spectator = browser(phone=True)
    try:
        player.get(f"{URL}?key={KEY}")
        wait("the player's page to connect", lambda: attr(player, "body", "data-connected") == "true")
        assert attr(player, "body", "data-role") == "player"
        wait("the start position", lambda: attr(player, "#board", "data-fen") == START)
        assert len(player.find_elements(By.CSS_SELECTOR, "[data-piece]")) == 24
        wait("the human's turn", lambda: attr(player, "#board", "data-status") == "1")
        assert player.find_element(By.ID, "controls").is_displayed()

        spectator.get(URL)
        wait("the spectator's page", lambda: attr(spectator, "body", "data-connected") == "true")
        assert attr(spectator, "body", "data-role") == "spectator"
        assert not spectator.find_element(By.ID, "controls").is_displayed(), "spectators see no controls"
        width, inner = spectator.execute_script(
            "return [document.documentElement.scrollWidth, window.innerWidth]")
        assert width <= inner, f"the page fits a phone's width ({width}px in {inner}px)"
        # A spectator's click does nothing, and a spectator's request is refused.
        spectator.find_element(By.CSS_SELECTOR, f"rect[data-square='{C3}']").click()
        spectator.find_element(By.CSS_SELECTOR, f"rect[data-square='{D4}']").click()
        refused = raw(spectator, "", [json.dumps({"op": "move", "id": 1, "text": "c3-d4"})])
        assert refused and refused[0]["ok"] is False and "spectator" in refused[0]["message"], refused
        assert attr(player, "#board", "data-fen") == START

        # Bad requests: each answered with an error, and the game does not change.
        bad = raw(player, f"?key={KEY}", [
            json.dumps({"op": "move", "id": 2, "text": "a1-b2"}),
            "{not json",
            json.dumps({"op": "move", "id": 3, "text": "x" * 20000}),
            json.dumps({"op": "teleport", "id": 4}),
        ])
        assert len(bad) == 4, bad
        illegal = [b for b in bad if b.get("id") == 2][0]
        assert illegal["ok"] is False and "not a legal move" in illegal["message"], illegal
        errors = [b for b in bad if b["op"] == "error"]
        assert len(errors) == 3, errors
        assert any("at most" in e["message"] for e in errors), errors
        time.sleep(1)
        assert attr(player, "#board", "data-fen") == START and attr(player, "#board", "data-ply") == "0"

        eyes_before, speech_before = lit(player), texts(player, "#speech")
        arm_before = attr(player, "#arm [data-points]", "data-points")
        # The visitor plays c3-d4 by clicking the piece and the square.
        player.find_element(By.CSS_SELECTOR, f"rect[data-square='{C3}']").click()
        player.find_element(By.CSS_SELECTOR, f"rect[data-square='{D4}']").click()
        wait("the human's move on the board", lambda: int(attr(player, "#board", "data-ply")) >= 1, 90)
        seen_arm, seen_eyes = set(), set()

        def answered():
            seen_arm.add(attr(player, "#arm [data-points]", "data-points"))
            seen_eyes.add(lit(player))
            return int(attr(player, "#board", "data-ply")) >= 2
        wait("the robot's answer", answered, 180)
        # The move list is drawn from the game's record, which may come a moment after the board.
        wait("both moves in the list", lambda: len(texts(player, "#moves li")) >= 2, 30)
        moves = texts(player, "#moves li")
        assert len(moves) >= 2 and "c3-d4" in moves[0], moves
        assert len(seen_arm | {arm_before}) > 1, "the arm moved"
        # The eyes look at the board while the arm moves and back at the player after.
        wait("the eyes to change", lambda: seen_eyes.add(lit(player)) or len(seen_eyes | {eyes_before}) > 1, 30)
        said = texts(player, "#speech")
        print(f"the robot said {said!r} (before: {speech_before!r})")
        wait("a win probability point", lambda: int(attr(player, "#winprob", "data-count") or 0) >= 1, 30)
        wait("the health panel", lambda: len(player.find_elements(By.CSS_SELECTOR, "#health [data-diag-name]")) >= 3, 30)
        assert attr(spectator, "#board", "data-ply") == attr(player, "#board", "data-ply"), "the spectator sees the game live"
        player.save_screenshot(SHOT)
        spectator.save_screenshot(SHOT.replace(".png", "-phone.png"))
        print(f"ok: moves {moves}, screenshot {SHOT}")
    finally:
        player.quit()
        spectator.quit()


def replay():
    """A recorded game played back: the moves arrive, nobody can play."""
    d = browser()
    try:
        d.get(URL)
        wait("the replay's page", lambda: attr(d, "body", "data-connected") == "true")
        assert not d.find_element(By.ID, "controls").is_displayed(), "a replay has no controls"
        assert attr(d, "body", "data-can-play") == "false"
        wait("the recorded moves", lambda: int(attr(d, "#board", "data-ply")) >= 2, 120)
        wait("both moves in the list", lambda: len(texts(d, "#moves li")) >= 2, 30)
        moves = texts(d, "#moves li")
        assert len(moves) >= 2 and "c3-d4" in moves[0], moves
        refused = raw(d, "", [json.dumps({"op": "hint", "id": 1})])
        assert refused and refused[0]["ok"] is False, refused
        d.save_screenshot(SHOT)
        print(f"ok: replayed {moves}, screenshot {SHOT}")
    finally:
        d.quit()


if __name__ == "__main__":
    try:
        replay() if REPLAY else main()
    except AssertionError as e:
        print(f"FAILED: {e}")
        sys.exit(1)
