// Thin C wrappers for Linux calls Swift cannot reach directly: variadic ioctl/open and
// macro-only request numbers of the GPIO character-device uAPI (v2) and DRM.
#ifndef BOOTH_CSYSCALLS_H
#define BOOTH_CSYSCALLS_H
#include <stdint.h>
#include <sys/types.h>
#include <linux/gpio.h>

/// ioctl(2) with a pointer argument. Returns -1 and sets errno on failure.
int booth_ioctl(int fd, unsigned long request, void *arg);
/// open(2) with a mode (the variadic argument). Returns -1 and sets errno on failure.
int booth_open(const char *path, int flags, unsigned int mode);

/// Request numbers that are macros in <linux/gpio.h>.
unsigned long booth_gpio_get_chipinfo_ioctl(void);
unsigned long booth_gpio_v2_get_lineinfo_ioctl(void);
unsigned long booth_gpio_v2_get_line_ioctl(void);
unsigned long booth_gpio_v2_line_set_config_ioctl(void);
unsigned long booth_gpio_v2_line_get_values_ioctl(void);
unsigned long booth_gpio_v2_line_set_values_ioctl(void);

/// mallopt(M_MMAP_THRESHOLD, bytes): allocations of at least `bytes` come from mmap (and go back
/// to the system when freed); fixing it also stops glibc's dynamic threshold. 1 on success.
int booth_set_mmap_threshold(int bytes);
/// mallopt(M_ARENA_MAX, count): at most `count` malloc arenas (threads share them). 1 on success.
int booth_set_arena_max(int count);
/// malloc_trim(0): returns the free pages of every arena to the system. 1 when some were returned.
int booth_malloc_trim(void);

/// statvfs(3) reduced to what Booth reads: the bytes an unprivileged writer may still use
/// (f_bavail × f_frsize) in `*available`. Returns 0, or -1 and sets errno.
int booth_statvfs_available(const char *path, unsigned long long *available);

#endif
