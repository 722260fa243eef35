/**
 * Keyframes for the home carousels, hoisted into <head> once by React (style-src allows inline
 * styles). Visitors who prefer reduced motion get them shortened to nothing by app.css.
 */
export function HomeKeyframes() {
  return (
    <style href="taxbridge-home-keyframes" precedence="default">
      {"@keyframes taxbridge-progress{from{transform:scaleX(0)}to{transform:scaleX(1)}}" +
        "@keyframes taxbridge-slide-next{from{transform:translateX(3rem)}to{transform:none}}" +
        "@keyframes taxbridge-slide-previous{from{transform:translateX(-3rem)}to{transform:none}}"}
    </style>
  );
}
