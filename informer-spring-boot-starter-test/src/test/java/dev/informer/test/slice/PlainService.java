package dev.informer.test.slice;

import org.springframework.stereotype.Service;

/**
 * A component without listeners, which the slice leaves out unless a test includes it.
 */
@Service
public class PlainService {

}
