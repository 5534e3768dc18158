/** Which try this is: `retry` > 0 after a failure or an expired lease; on the last one a throw is final. */
export interface JobAttempt {
  retry: number;
  last: boolean;
}
