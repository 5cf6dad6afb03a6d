//! The field board: the 32 Hall sensors through four 74HC165s, and the two buttons, on one
//! USB serial interface. Pins as docs/firmware.md's wiring table.

#![no_std]
#![no_main]

use checkers_robot_pico::{seed, start_watchdog, Channel};
use firmware_core::device::{Device, FieldUnit};
use firmware_core::field::{Field, FieldConfig, Hc165Field};
use panic_halt as _;
use rp_pico::entry;
use rp_pico::hal::{self, pac};
use serial_link::FirmwareId;
use usb_device::class_prelude::UsbBusAllocator;
use usb_device::prelude::*;
use usbd_serial::SerialPort;

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

    let inputs = Hc165Field::new(
        pins.gpio2.into_push_pull_output(),
        pins.gpio3.into_push_pull_output(),
        pins.gpio4.into_floating_input(),
        [
            pins.gpio5.into_pull_up_input().into_dyn_pin(),
            pins.gpio6.into_pull_up_input().into_dyn_pin(),
        ],
        timer,
        true,
        true,
    );
    let unit = FieldUnit {
        field: Field::new(FieldConfig::default()),
        inputs,
    };

    let bus = cortex_m::singleton!(: UsbBusAllocator<hal::usb::UsbBus> = UsbBusAllocator::new(
        hal::usb::UsbBus::new(pac.USBCTRL_REGS, pac.USBCTRL_DPRAM, clocks.usb_clock, true, &mut pac.RESETS)
    ))
    .unwrap();
    let mut port = SerialPort::new(bus);
    let mut usb = UsbDeviceBuilder::new(bus, UsbVidPid(0x16c0, 0x27dd))
        .strings(&[StringDescriptors::default()
            .manufacturer("checkers_robot")
            .product("field board")
            .serial_number("field")])
        .unwrap()
        .device_class(usbd_serial::USB_CLASS_CDC)
        .build();

    let now = || timer.get_counter().ticks();
    let id = FirmwareId::new(concat!("pico-field ", env!("CARGO_PKG_VERSION")));
    let mut field = Channel::new(Device::new(unit, id, seed(now()), now()));
    start_watchdog(&mut watchdog);
    loop {
        watchdog.feed();
        usb.poll(&mut [&mut port]);
        field.service(&mut port, now());
    }
}
