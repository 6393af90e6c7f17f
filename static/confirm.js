// A form marked data-confirm asks before it is sent (destructive actions: deactivating a log-in).
document.addEventListener("submit", (event) => {
  const question = event.target.dataset && event.target.dataset.confirm;
  if (question && !window.confirm(question)) event.preventDefault();
});
