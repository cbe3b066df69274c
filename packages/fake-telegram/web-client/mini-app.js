// Room for a Mini App: a web_app button opens its URL in a panel beside the chat.

export function openMiniApp(url, title) {
  const panel = document.getElementById("mini-app");
  panel.querySelector("h2").textContent = title;
  panel.querySelector("iframe").src = /^https?:/i.test(url) ? url : "about:blank";
  panel.hidden = false;
}

export function wireMiniApp() {
  const panel = document.getElementById("mini-app");
  panel.querySelector("button").addEventListener("click", () => {
    panel.hidden = true;
    panel.querySelector("iframe").src = "about:blank";
  });
}
