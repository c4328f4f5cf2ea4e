#include <sys/statvfs.h>
#include "csyscalls.h"
#include <fcntl.h>
#include <sys/ioctl.h>

int booth_ioctl(int fd, unsigned long request, void *arg) { return ioctl(fd, request, arg); }
int booth_open(const char *path, int flags, unsigned int mode) { return open(path, flags, (mode_t)mode); }

unsigned long booth_gpio_get_chipinfo_ioctl(void) { return GPIO_GET_CHIPINFO_IOCTL; }
unsigned long booth_gpio_v2_get_lineinfo_ioctl(void) { return GPIO_V2_GET_LINEINFO_IOCTL; }
unsigned long booth_gpio_v2_get_line_ioctl(void) { return GPIO_V2_GET_LINE_IOCTL; }
unsigned long booth_gpio_v2_line_set_config_ioctl(void) { return GPIO_V2_LINE_SET_CONFIG_IOCTL; }
unsigned long booth_gpio_v2_line_get_values_ioctl(void) { return GPIO_V2_LINE_GET_VALUES_IOCTL; }
unsigned long booth_gpio_v2_line_set_values_ioctl(void) { return GPIO_V2_LINE_SET_VALUES_IOCTL; }

#include <malloc.h>

int booth_set_mmap_threshold(int bytes) {
#ifdef M_MMAP_THRESHOLD
    return mallopt(M_MMAP_THRESHOLD, bytes);
#else
    (void)bytes;
    return 0;
#endif
}

int booth_statvfs_available(const char *path, unsigned long long *available) {
    struct statvfs s;
    if (statvfs(path, &s) != 0) return -1;
    *available = (unsigned long long)s.f_bavail * (unsigned long long)s.f_frsize;
    return 0;
}

int booth_set_arena_max(int count) {
#ifdef M_ARENA_MAX
    return mallopt(M_ARENA_MAX, count);
#else
    (void)count;
    return 0;
#endif
}

int booth_malloc_trim(void) {
#ifdef __GLIBC__
    return malloc_trim(0);
#else
    return 0;
#endif
}
