/**
 * Test support.
 */
package dev.informer.test;
