//! The process's own metrics, under the names every Prometheus client library gives
//! them (`process_*`), read from Linux's `/proc/self` each time the metrics are asked
//! for; elsewhere only the start time is given. A file that cannot be read leaves its
//! series as it was: nothing here fails a scrape.

use std::time::{SystemTime, UNIX_EPOCH};

/// Sets `process_start_time_seconds` (the moment this is called: the recorder is
/// installed as the server starts) and reads the rest a first time.
pub(crate) fn start() {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|since| since.as_secs_f64())
        .unwrap_or(0.0);
    metrics::gauge!("process_start_time_seconds").set(now);
    read();
}

/// Reads the process's figures now: CPU time, memory, open files.
pub(crate) fn read() {
    #[cfg(target_os = "linux")]
    linux::read();
}

/// Each metric's help text, for Prometheus.
pub(crate) fn describe() {
    use metrics::{Unit, describe_gauge};
    describe_gauge!(
        "process_start_time_seconds",
        Unit::Seconds,
        "When the server started, in seconds since the Unix epoch"
    );
    describe_gauge!(
        "process_cpu_seconds_total",
        Unit::Seconds,
        "Processor time the process has used (user and system), in seconds"
    );
    describe_gauge!(
        "process_resident_memory_bytes",
        Unit::Bytes,
        "Memory the process holds in RAM"
    );
    describe_gauge!(
        "process_virtual_memory_bytes",
        Unit::Bytes,
        "The process's virtual memory"
    );
    describe_gauge!(
        "process_open_fds",
        "Files (and sockets) the process has open"
    );
    describe_gauge!(
        "process_max_fds",
        "Files (and sockets) the process may have open"
    );
}

#[cfg(target_os = "linux")]
mod linux {
    use std::fs;

    pub(super) fn read() {
        // Nanoseconds on a processor: `/proc/self/schedstat`'s first figure.
        if let Some(nanoseconds) = fs::read_to_string("/proc/self/schedstat")
            .ok()
            .and_then(|text| first_number(&text))
        {
            metrics::gauge!("process_cpu_seconds_total").set(nanoseconds / 1e9);
        }
        if let Ok(status) = fs::read_to_string("/proc/self/status") {
            if let Some(kib) = field(&status, "VmRSS:") {
                metrics::gauge!("process_resident_memory_bytes").set(kib * 1024.0);
            }
            if let Some(kib) = field(&status, "VmSize:") {
                metrics::gauge!("process_virtual_memory_bytes").set(kib * 1024.0);
            }
        }
        if let Ok(open) = fs::read_dir("/proc/self/fd") {
            // The listing's own descriptor is one of them.
            let open = open.count().saturating_sub(1);
            metrics::gauge!("process_open_fds").set(open as f64);
        }
        if let Some(most) = fs::read_to_string("/proc/self/limits")
            .ok()
            .and_then(|limits| field(&limits, "Max open files"))
        {
            metrics::gauge!("process_max_fds").set(most);
        }
    }

    /// The first number on the line that begins with `name` (in `/proc`'s
    /// `Name:   1234 kB` or `Max open files   1024   4096   files` form).
    pub(super) fn field(text: &str, name: &str) -> Option<f64> {
        text.lines()
            .find_map(|line| line.strip_prefix(name))
            .and_then(first_number)
    }

    fn first_number(text: &str) -> Option<f64> {
        text.split_whitespace().next()?.parse().ok()
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn a_field_is_the_first_number_after_its_name() {
            // Arrange
            let status = "Name:\ttictactoe\nVmSize:\t  123456 kB\nVmRSS:\t    2048 kB\n";

            // Act
            let resident = field(status, "VmRSS:");

            // Assert
            assert_eq!(resident, Some(2048.0));
        }

        #[test]
        fn a_limit_is_its_soft_figure() {
            // Arrange
            let limits = "Max processes             63711                63711                processes\nMax open files            1024                 524288               files\n";

            // Act
            let most = field(limits, "Max open files");

            // Assert
            assert_eq!(most, Some(1024.0));
        }

        #[test]
        fn a_field_not_there_is_none() {
            // Act
            let missing = field("VmRSS:\t1 kB\n", "VmSize:");

            // Assert
            assert_eq!(missing, None);
        }
    }
}
