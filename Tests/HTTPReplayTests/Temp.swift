enum _Temp {}
