//! The control board: the arm controller and the head controller on one Pico, each on its own
//! USB serial interface (the host sees two ports). Pins as docs/firmware.md's wiring table.

#![no_std]
#![no_main]

use checkers_robot_pico::{seed, start_watchdog, Channel};
use embedded_hal::digital::OutputPin;
use embedded_hal::pwm::SetDutyCycle;
use embedded_hal::spi::SpiDevice;
use embedded_hal_bus::spi::ExclusiveDevice;
use firmware_core::arm::{Arm, ArmConfig, HalArmIo};
use firmware_core::device::{Device, HeadOutputs, HeadUnit};
use firmware_core::head::max7219::Transaction;
use firmware_core::head::{set_pulse, Head, HeadConfig, SERVOS};
use firmware_core::stepper::StepDir;
use panic_halt as _;
use rp_pico::entry;
use rp_pico::hal::{self, fugit::RateExtU32, pac, Clock};
use serial_link::FirmwareId;
use usb_device::class_prelude::UsbBusAllocator;
use usb_device::prelude::*;
use usbd_serial::SerialPort;

/// The servos' PWM channels (brow left, brow right, neck pan, neck tilt: `ServoId` order)
/// and the eyes' SPI, as the head logic drives them.
struct Outputs<A, B, C, D, S> {
    servos: (A, B, C, D),
    eyes: S,
}

impl<A, B, C, D, S> HeadOutputs for Outputs<A, B, C, D, S>
where
    A: SetDutyCycle,
    B: SetDutyCycle,
    C: SetDutyCycle,
    D: SetDutyCycle,
    S: SpiDevice,
{
    fn servo_pulses(&mut self, us: [u16; SERVOS]) {
        let (a, b, c, d) = &mut self.servos;
        let _ = set_pulse(a, us[0]);
        let _ = set_pulse(b, us[1]);
        let _ = set_pulse(c, us[2]);
        let _ = set_pulse(d, us[3]);
    }

    fn eye_write(&mut self, words: Transaction<2>) {
        let [a, b] = words;
        let [a0, a1] = a.to_be_bytes();
        let [b0, b1] = b.to_be_bytes();
        let _ = self.eyes.write(&[a0, a1, b0, b1]);
    }
}

#[entry]
fn main() -> ! {
    let mut pac = pac::Peripherals::take().unwrap();
    let mut watchdog = hal::Watchdog::new(pac.WATCHDOG);
    let clocks = hal::clocks::init_clocks_and_plls(
        rp_pico::XOSC_CRYSTAL_FREQ,
        pac.XOSC,
        pac.CLOCKS,
        pac.PLL_SYS,
        pac.PLL_USB,
        &mut pac.RESETS,
        &mut watchdog,
    )
    .ok()
    .unwrap();
    let timer = hal::Timer::new(pac.TIMER, &mut pac.RESETS, &clocks);
    let sio = hal::Sio::new(pac.SIO);
    let pins = rp_pico::Pins::new(
        pac.IO_BANK0,
        pac.PADS_BANK0,
        sio.gpio_bank0,
        &mut pac.RESETS,
    );

    // The arm: three A4988s, their common enable, three TLE4945L switches, pump and valve.
    // Pins of one kind in an array must share a type: the dynamic ones.
    let drivers = [
        StepDir::new(
            pins.gpio2.into_push_pull_output().into_dyn_pin(),
            pins.gpio3.into_push_pull_output().into_dyn_pin(),
            false,
        ),
        StepDir::new(
            pins.gpio4.into_push_pull_output().into_dyn_pin(),
            pins.gpio5.into_push_pull_output().into_dyn_pin(),
            false,
        ),
        StepDir::new(
            pins.gpio6.into_push_pull_output().into_dyn_pin(),
            pins.gpio7.into_push_pull_output().into_dyn_pin(),
            false,
        ),
    ];
    let mut enable = pins.gpio8.into_push_pull_output();
    let _ = enable.set_low();
    let limits = [
        pins.gpio9.into_floating_input().into_dyn_pin(),
        pins.gpio10.into_floating_input().into_dyn_pin(),
        pins.gpio11.into_floating_input().into_dyn_pin(),
    ];
    let io = HalArmIo {
        drivers,
        limits,
        limit_active_low: true,
        pump: pins.gpio20.into_push_pull_output(),
        vent: pins.gpio21.into_push_pull_output(),
        delay: timer,
    };
    let arm = Arm::new(ArmConfig::paper_robot(), io);

    // The head: servos at 50 Hz (1 us per count: 125 MHz / 125, 20,000 counts), the eyes on
    // SPI1 with LOAD as chip select.
    let mut pwm = hal::pwm::Slices::new(pac.PWM, &mut pac.RESETS);
    pwm.pwm0.set_div_int(125);
    pwm.pwm0.set_top(19_999);
    pwm.pwm0.enable();
    pwm.pwm1.set_div_int(125);
    pwm.pwm1.set_top(19_999);
    pwm.pwm1.enable();
    let mut brow_left = pwm.pwm0.channel_a;
    brow_left.output_to(pins.gpio16);
    let mut brow_right = pwm.pwm0.channel_b;
    brow_right.output_to(pins.gpio17);
    let mut pan = pwm.pwm1.channel_a;
    pan.output_to(pins.gpio18);
    let mut tilt = pwm.pwm1.channel_b;
    tilt.output_to(pins.gpio19);
    let spi_pins = (
        pins.gpio15.into_function::<hal::gpio::FunctionSpi>(),
        pins.gpio14.into_function::<hal::gpio::FunctionSpi>(),
    );
    let spi = hal::spi::Spi::<_, _, _, 8>::new(pac.SPI1, spi_pins).init(
        &mut pac.RESETS,
        clocks.peripheral_clock.freq(),
        1.MHz(),
        embedded_hal::spi::MODE_0,
    );
    let load = pins.gpio13.into_push_pull_output();
    let eyes = ExclusiveDevice::new(spi, load, timer).unwrap();
    let head = HeadUnit::new(
        Head::new(HeadConfig::paper_robot()),
        Outputs {
            servos: (brow_left, brow_right, pan, tilt),
            eyes,
        },
    );

    // USB: one device, two CDC-ACM serial interfaces.
    let bus = cortex_m::singleton!(: UsbBusAllocator<hal::usb::UsbBus> = UsbBusAllocator::new(
        hal::usb::UsbBus::new(pac.USBCTRL_REGS, pac.USBCTRL_DPRAM, clocks.usb_clock, true, &mut pac.RESETS)
    ))
    .unwrap();
    let mut arm_port = SerialPort::new(bus);
    let mut head_port = SerialPort::new(bus);
    let mut usb = UsbDeviceBuilder::new(bus, UsbVidPid(0x16c0, 0x27dd))
        .strings(&[StringDescriptors::default()
            .manufacturer("checkers_robot")
            .product("control board (arm, head)")
            .serial_number("control")])
        .unwrap()
        .composite_with_iads()
        .build();

    let now = || timer.get_counter().ticks();
    let arm_id = FirmwareId::new(concat!("pico-arm ", env!("CARGO_PKG_VERSION")));
    let head_id = FirmwareId::new(concat!("pico-head ", env!("CARGO_PKG_VERSION")));
    let mut arm = Channel::new(Device::new(arm, arm_id, seed(now()), now()));
    let mut head = Channel::new(Device::new(head, head_id, seed(now() ^ 1), now()));
    let mut led = pins.led.into_push_pull_output();
    start_watchdog(&mut watchdog);
    loop {
        watchdog.feed();
        usb.poll(&mut [&mut arm_port, &mut head_port]);
        let t = now();
        arm.service(&mut arm_port, t);
        head.service(&mut head_port, t);
        let _ = led.set_state((arm.device.connected() || head.device.connected()).into());
    }
}
