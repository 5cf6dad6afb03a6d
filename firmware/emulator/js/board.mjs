// One Raspberry Pi Pico, emulated instruction by instruction by rp2040js, running our firmware
// ELF with the RP2040's boot ROM. The Rust side (../src/board.rs) drives it in lock step over
// stdin and stdout, one JSON line each way per slice of emulated time:
//
//   first line in:  the ELF, the boot ROM, the board's wiring and its stack (../src/board.rs,
//                   `Config`; the pins in ../src/wiring.rs)
//   each line in:   {"run_us", "set": {pin: level}, "shift": u32, "tx": [[port, base64]],
//                    "power": bool, "hang_us": n, "stack": bool}
//   each line out:  {"t_us", "gen", "attached", "steps", "out", "pulses", "spi", "rx",
//                    "latches", "feeds", "reasons", "stack_used", "edges"}
//
// Only the chip and the parts soldered next to it are here: the 74HC165 chain's shifting, the
// USB host's enumeration and its bulk transfers, pulse widths read off the PWM pins. What the
// pins mean in the world (a joint turning, a magnet over a sensor) is the Rust sim's.
import { RP2040 } from 'rp2040js';
import { readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const NS_PER_CYCLE = 8; // rp2040js times every cycle at 125 MHz
const WATCHDOG_BASE = 0x40058000;
const WATCHDOG_LOAD = 0x04;
const GPIO_HIGH = 1;
const GPIO_LOW = 0;
const SRAM_BASE = 0x20000000;
const PAINT = 0xa5;
const SETUP_GAP_NS = 100_000;
// PICO_PROFILE=PREFIX samples the program counter every 32 instructions and writes the counts
// to PREFIX.<elf name> whenever the stack is read (tools/pico/profile.py reads them).
const PROFILE = process.env.PICO_PROFILE;
const profile = new Map();
let profN = 0;

let config = null;
let chip = null;
let gen = 0;
// Emulated nanoseconds before the current chip was powered up: time runs on across reboots.
let baseNanos = 0;
let powered = true;
const out = { reset() { Object.assign(this, emptyOutput()); } };

function emptyOutput() {
  return {
    steps: config ? config.steps.map(() => [0, 0]) : [],
    spi: [],
    rx: new Map(),
    latches: 0,
    feeds: [],
    edges: [],
    reasons: [],
  };
}

// rp2040js's notes on registers it does not model stay out of the user's terminal; its errors
// reach the Rust side's log.
const quiet = {
  debug() {},
  info() {},
  warn() {},
  error(component, message) {
    process.stderr.write(`rp2040js ${component}: ${message}\n`);
  },
};

// The firmware image: each PT_LOAD segment copied to flash at its load address.
function loadElf(mcu, bytes) {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const phoff = dv.getUint32(28, true);
  const phentsize = dv.getUint16(42, true);
  const phnum = dv.getUint16(44, true);
  for (let i = 0; i < phnum; i++) {
    const o = phoff + i * phentsize;
    if (dv.getUint32(o, true) !== 1) continue;
    const offset = dv.getUint32(o + 4, true);
    const paddr = dv.getUint32(o + 12, true);
    const filesz = dv.getUint32(o + 16, true);
    if (filesz && paddr >= 0x10000000 && paddr < 0x11000000) {
      mcu.flash.set(bytes.subarray(offset, offset + filesz), paddr - 0x10000000);
    }
  }
}

class Chip {
  constructor() {
    const mcu = new RP2040();
    mcu.logger = quiet;
    // loadBootrom resets the chip, which erases the flash: the ROM first.
    const rom = readFileSync(config.bootrom);
    mcu.loadBootrom(new Uint32Array(rom.buffer, rom.byteOffset, 4096));
    loadElf(mcu, readFileSync(config.elf));
    // The stack's region painted, to find how deep it ever reached.
    mcu.sram.fill(PAINT, config.stack.floor - SRAM_BASE, config.stack.top - SRAM_BASE);
    // rp2040js cannot boot through the ROM (it reads registers it does not model); boot2 at
    // the start of flash, as the library's own demo does, then the vector table.
    mcu.core.PC = 0x10000000;
    this.mcu = mcu;
    this.pending = new Map(); // OUT endpoint -> bytes the device has armed for
    this.ports = [];
    this.control = null;
    this.queue = [];
    this.kicked = null;
    this.attached = false;
    this.hung = 0;
    this.rebootReason = null;
    this.pulseStart = new Map();
    this.pulses = new Map();
    this.shift = 0;
    this.levels = 0;
    this.wire();
    this.host();
  }

  now() {
    return baseNanos + this.mcu.clock.nanos;
  }

  wire() {
    const mcu = this.mcu;
    for (const [pin, level] of Object.entries(config.inputs)) mcu.gpio[+pin].setInputValue(level);
    config.steps.forEach(([step, dir], joint) => {
      mcu.gpio[step].addListener((state, old) => {
        if (state !== GPIO_HIGH || old === GPIO_HIGH) return;
        const forward = mcu.gpio[dir].outputValue;
        out.steps[joint][forward ? 0 : 1] += 1;
        if (config.trace_steps) out.edges.push([joint, Math.round(this.now())]);
      });
    });
    for (const pin of config.pwm) {
      mcu.gpio[pin].addListener((state, old) => {
        if (state === GPIO_HIGH && old !== GPIO_HIGH) this.pulseStart.set(pin, this.now());
        if (state === GPIO_LOW && old === GPIO_HIGH && this.pulseStart.has(pin)) {
          this.pulses.set(pin, Math.round((this.now() - this.pulseStart.get(pin)) / 1000));
        }
      });
    }
    if (config.spi) {
      const spi = mcu.spi[config.spi.bus];
      let frame = null;
      spi.onTransmit = (value) => {
        if (frame) frame.push(value & 0xff);
        spi.completeTransmit(0);
      };
      mcu.gpio[config.spi.cs].addListener((state, old) => {
        if (state === GPIO_LOW && old !== GPIO_LOW) frame = [];
        if (state === GPIO_HIGH && old !== GPIO_HIGH && frame) {
          if (frame.length) out.spi.push(Buffer.from(frame).toString('base64'));
          frame = null;
        }
      });
    }
    if (config.hc165) this.wireShiftRegisters(config.hc165);
    // Each turn of the main loop feeds the watchdog: its period, and the hang fault's victim.
    const wd = mcu.peripherals[WATCHDOG_BASE >>> 14 << 2];
    const write = wd.writeUint32.bind(wd);
    wd.writeUint32 = (offset, value) => {
      if (offset === WATCHDOG_LOAD) out.feeds.push(Math.round(this.now()));
      write(offset, value);
    };
    // rp2040js only warns when the watchdog fires; the chip resets, so we reboot it. It must be
    // disabled first, or its alarm keeps firing at the same instant.
    wd.onWatchdogTrigger = () => {
      mcu.writeUint32(WATCHDOG_BASE, 0);
      this.rebootReason = 'watchdog';
    };
  }

  // Four 74HC165s in a chain, SH/LD low loads all 32 inputs, each CLK rise shifts one bit
  // toward QH; the free SER is tied to ground.
  wireShiftRegisters({ load, clk, data }) {
    const mcu = this.mcu;
    const show = () => mcu.gpio[data].setInputValue((this.shift & 1) === 1);
    mcu.gpio[load].addListener((state, old) => {
      if (state === GPIO_LOW && old !== GPIO_LOW) {
        out.latches += 1;
        this.shift = this.levels >>> 0;
        show();
      }
    });
    mcu.gpio[clk].addListener((state, old) => {
      if (state !== GPIO_HIGH || old === GPIO_HIGH) return;
      if (mcu.gpio[load].outputValue === false) return; // loading: the inputs show through
      this.shift = this.shift >>> 1;
      show();
    });
    show();
  }

  // The computer's side of USB: enumeration, line coding and DTR on every CDC interface, then
  // bulk transfers. rp2040js's own USBCDC helper cannot enumerate usb-device firmware (it
  // wants each descriptor in one packet, keeps one CDC interface, and sends DTR to the device).
  host() {
    const usb = this.mcu.usbCtrl;
    usb.onUSBEnabled = () => usb.resetDevice();
    usb.onResetReceived = () => this.enumerate();
    usb.onEndpointRead = (ep, size) => {
      this.pending.set(ep, size);
      const c = this.control;
      if (ep === 0 && c && !c.isIn && c.data && !c.sent) {
        c.sent = true;
        this.pending.delete(0);
        usb.endpointReadDone(0, c.data);
      }
      if (ep !== 0) this.send();
    };
    usb.onEndpointWrite = (ep, buf) => {
      if (ep === 0) return this.controlIn(buf);
      const port = this.ports.findIndex((p) => p.in === ep);
      if (port < 0 || !this.attached) return;
      const got = out.rx.get(port) ?? [];
      got.push(Buffer.from(buf));
      out.rx.set(port, got);
    };
  }

  controlIn(buf) {
    const c = this.control;
    if (!c) return;
    const usb = this.mcu.usbCtrl;
    if (c.isIn) {
      c.rx.push(...buf);
      if (c.rx.length >= c.wLength || buf.length < this.ep0max) {
        if (this.pending.has(0)) {
          this.pending.delete(0);
          usb.endpointReadDone(0, new Uint8Array(0)); // the status stage
        }
        this.finish(Uint8Array.from(c.rx));
      }
    } else if (buf.length === 0) {
      this.finish(null);
    }
  }

  setup(bmRequestType, bRequest, wValue, wIndex, wLength, data, then) {
    const pkt = Uint8Array.of(bmRequestType, bRequest, wValue & 255, wValue >> 8,
      wIndex & 255, wIndex >> 8, wLength & 255, wLength >> 8);
    this.queue.push({ pkt, wLength, data, then, isIn: (bmRequestType & 0x80) !== 0 });
    this.kick();
  }

  // The next SETUP goes out a little after the last transfer ended, as on a real bus (one per
  // frame at most): sent at once, it would overtake the status stage still in flight, and
  // usb-device would take that late status for the end of the new transfer's data stage.
  kick() {
    if (this.control || this.kicked || this.queue.length === 0) return;
    this.kicked = this.mcu.clock.createAlarm(() => {
      this.kicked = null;
      this.nextControl();
    });
    this.kicked.schedule(SETUP_GAP_NS);
  }

  nextControl() {
    this.control = this.queue.shift() ?? null;
    if (!this.control) return;
    this.control.rx = [];
    this.pending.delete(0);
    this.mcu.usbCtrl.sendSetupPacket(this.control.pkt);
  }

  finish(result) {
    const c = this.control;
    this.control = null;
    c.then?.(result);
    this.kick();
  }

  enumerate() {
    this.ep0max = 8;
    this.attached = false;
    this.ports = [];
    this.setup(0x80, 6, 0x0100, 0, 64, null, (device) => {
      this.ep0max = device[7] || 8;
      this.setup(0x00, 5, 1, 0, 0, null, null); // SET_ADDRESS
      this.setup(0x80, 6, 0x0200, 0, 9, null, (head) => {
        const total = head[2] | (head[3] << 8);
        this.setup(0x80, 6, 0x0200, 0, total, null, (cfg) => this.configure(cfg));
      });
    });
  }

  // The CDC ports of a configuration descriptor, in interface order: each communication
  // interface (class 2) with its data interface's (class 10) bulk endpoints.
  configure(cfg) {
    const ports = [];
    let current = null;
    for (let i = 0; i + 1 < cfg.length && cfg[i] > 0; i += cfg[i]) {
      const type = cfg[i + 1];
      if (type === 4) {
        current = { number: cfg[i + 2], cls: cfg[i + 5] };
        if (current.cls === 2) ports.push({ comm: current.number });
      } else if (type === 5 && current?.cls === 10 && ports.length) {
        const address = cfg[i + 2];
        const bulk = (cfg[i + 3] & 3) === 2;
        if (!bulk) continue;
        if (address & 0x80) ports[ports.length - 1].in = address & 15;
        else ports[ports.length - 1].out = address & 15;
      }
    }
    this.setup(0x00, 9, 1, 0, 0, null, null); // SET_CONFIGURATION
    for (const p of ports) {
      // 115200 8N1 and DTR|RTS, each to its own interface, as a computer's CDC driver does.
      this.setup(0x21, 0x20, 0, p.comm, 7, Uint8Array.of(0x00, 0xc2, 0x01, 0x00, 0, 0, 8), null);
      this.setup(0x21, 0x22, 3, p.comm, 0, null, null);
    }
    this.setup(0xa1, 0x21, 0, ports[0]?.comm ?? 0, 7, null, () => {
      this.ports = ports.map((p) => ({ ...p, queue: [] }));
      this.attached = ports.length > 0;
    });
  }

  // Host bytes to each port's bulk OUT endpoint, a packet per buffer the device arms.
  send() {
    if (!this.attached) return;
    for (const p of this.ports) {
      const size = this.pending.get(p.out);
      if (size === undefined || p.queue.length === 0) continue;
      const all = Buffer.concat(p.queue);
      const chunk = all.subarray(0, size);
      const rest = all.subarray(chunk.length);
      p.queue = rest.length ? [rest] : [];
      this.pending.delete(p.out);
      this.mcu.usbCtrl.endpointReadDone(p.out, chunk);
    }
  }

  // Runs `us` microseconds of emulated time. A hung core executes nothing while time (and
  // the watchdog) runs on.
  run(us) {
    const mcu = this.mcu;
    const clock = mcu.clock;
    const target = clock.nanos + us * 1000;
    while (clock.nanos < target && !this.rebootReason) {
      if (this.hung > 0 || mcu.core.waiting) {
        const left = target - clock.nanos;
        const next = clock.nanosToNextAlarm;
        const step = this.hung > 0 ? Math.min(left, this.hung, next > 0 ? next : left)
          : (next > 0 && next < left ? next : left);
        clock.tick(step);
        if (this.hung > 0) this.hung = Math.max(0, this.hung - step);
      } else {
        if (PROFILE && (++profN & 31) === 0) {
          profile.set(mcu.core.PC, (profile.get(mcu.core.PC) ?? 0) + 1);
        }
        clock.tick(mcu.core.executeInstruction() * NS_PER_CYCLE);
      }
    }
    return target - clock.nanos;
  }

  stackUsed() {
    const { floor, top } = config.stack;
    const sram = this.mcu.sram;
    let at = floor - SRAM_BASE;
    while (at < top - SRAM_BASE && sram[at] === PAINT) at++;
    return top - SRAM_BASE - at;
  }
}

function writeProfile() {
  const rows = [...profile].sort((a, b) => b[1] - a[1]);
  const name = config.elf.split('/').pop();
  writeFileSync(`${PROFILE}.${name}`, rows.map(([pc, n]) => `${pc.toString(16)} ${n}`).join('\n'));
}

function powerUp() {
  gen += 1;
  chip = new Chip();
}

function powerDown() {
  if (chip) baseNanos += chip.mcu.clock.nanos;
  chip = null;
}

function slice(cmd) {
  out.reset();
  if (cmd.power === false && powered) {
    powered = false;
    powerDown();
  } else if (cmd.power === true && !powered) {
    powered = true;
    powerUp();
  }
  let stackUsed = null;
  let left = cmd.run_us ?? 0;
  if (chip) {
    for (const [pin, level] of Object.entries(cmd.set ?? {})) {
      config.inputs[pin] = level;
      chip.mcu.gpio[+pin].setInputValue(level);
    }
    if (cmd.shift !== undefined) chip.levels = cmd.shift >>> 0;
    for (const [port, data] of cmd.tx ?? []) {
      const p = chip.ports[port];
      if (p) p.queue.push(Buffer.from(data, 'base64'));
    }
    chip.send();
    if (cmd.hang_us) chip.hung = cmd.hang_us * 1000;
    while (chip) {
      const rest = chip.run(left) / 1000;
      if (!chip.rebootReason) break;
      // The watchdog reset the chip: a fresh one boots from flash, its stack painted again.
      out.reasons.push(chip.rebootReason);
      if (cmd.stack) stackUsed = Math.max(stackUsed ?? 0, chip.stackUsed());
      powerDown();
      powerUp();
      left = Math.max(0, rest);
    }
    if (cmd.stack) stackUsed = Math.max(stackUsed ?? 0, chip.stackUsed());
    if (cmd.stack && PROFILE) writeProfile();
  } else {
    baseNanos += left * 1000;
  }
  const reply = {
    t_us: Math.floor((chip ? chip.now() : baseNanos) / 1000),
    gen,
    attached: chip ? chip.attached : false,
    steps: out.steps,
    out: chip ? Object.fromEntries(config.outputs.map((p) => [p, chip.mcu.gpio[p].outputValue])) : {},
    pulses: chip ? Object.fromEntries(chip.pulses) : {},
    spi: out.spi,
    rx: [...out.rx].map(([port, bufs]) => [port, Buffer.concat(bufs).toString('base64')]),
    latches: out.latches,
    feeds: out.feeds,
    reasons: out.reasons,
    stack_used: stackUsed,
    edges: out.edges,
  };
  process.stdout.write(JSON.stringify(reply) + '\n');
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on('line', (line) => {
  try {
    const msg = JSON.parse(line);
    if (!config) {
      config = msg;
      out.reset();
      powerUp();
      process.stdout.write(JSON.stringify({ ready: true }) + '\n');
    } else {
      slice(msg);
    }
  } catch (e) {
    process.stderr.write(`emulator: ${e.stack ?? e}\n`);
    process.exit(1);
  }
});
lines.on('close', () => process.exit(0));
