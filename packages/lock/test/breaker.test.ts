// The circuit breaker on its own, with a clock the test moves.
import { expect, it } from "vitest";
import { CircuitBreaker, type BreakerState } from "../src/layers/circuit-breaker.ts";

it("opens after N consecutive failures, half-opens for one probe after the cool-down, and closes on success", () => {
  let now = 0;
  const changes: BreakerState[] = [];
  const breaker = new CircuitBreaker(
    { failureThreshold: 3, coolDownMs: 1000 },
    (state) => changes.push(state),
    () => now,
  );

  breaker.failure();
  breaker.success(); // a success in between resets the count
  breaker.failure();
  breaker.failure();
  expect(breaker.allow()).toBe(true);
  breaker.failure();
  expect(breaker.state).toBe("open");
  expect(breaker.allow()).toBe(false);

  now = 999;
  expect(breaker.allow()).toBe(false);
  now = 1000;
  expect(breaker.state).toBe("half-open");
  expect(breaker.allow()).toBe(true); // the probe
  expect(breaker.allow()).toBe(false); // everyone else still fails fast
  breaker.failure(); // the probe failed: open again, for a new cool-down
  expect(breaker.allow()).toBe(false);
  now = 2000;
  expect(breaker.allow()).toBe(true);
  breaker.success();
  expect(breaker.state).toBe("closed");
  expect(breaker.allow()).toBe(true);
  expect(changes).toEqual(["open", "closed"]);
});
