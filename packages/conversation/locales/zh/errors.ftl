## 错误与限制

button-invalid = 此按钮已失效。
rate-limited = 请求过于频繁，请慢一点。
error-generic = 我们这边出了点问题，请重试。
