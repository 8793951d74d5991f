package dev.informer.test.slice;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The application that {@code @InformerTest}s of this package find by searching upwards.
 */
@SpringBootApplication
public class SliceTestApplication {

}
